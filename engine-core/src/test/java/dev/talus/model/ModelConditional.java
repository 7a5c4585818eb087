package dev.talus.model;

import dev.talus.Condition;
import dev.talus.ConditionalResult;
import dev.talus.Table;
import java.util.Objects;
import java.util.Random;

/**
 * Conditional writes in the model-based test: {@code IF NOT EXISTS} inserts and compare-and-set
 * updates of {@code v1}, whose outcome (applied or not) is predicted from the model's current rows.
 * An applied one takes its timestamp from the engine (conditional writes may not set their own);
 * the model records it at the timestamp the engine reports for {@code v1}, which must be later than
 * every timestamp the model holds for the row.
 */
final class ModelConditional {
  private ModelConditional() {}

  /**
   * {@code INSERT ... v1 = value IF NOT EXISTS} when {@code expected} is absent, else {@code UPDATE
   * SET v1 = value IF v1 = expected} (null: no value).
   */
  record Cas(boolean insert, int p, int c1, String c2, Integer expected, Integer value)
      implements ModelBasedTest.Op {}

  static Cas generate(Random rnd, int p, int c1, String c2) {
    Integer expected = rnd.nextInt(4) == 0 ? null : rnd.nextInt(7) - 3;
    return new Cas(rnd.nextInt(3) == 0, p, c1, c2, expected, rnd.nextInt(7) - 3);
  }

  static String apply(Cas op, Table t, Model model, long now) {
    Model.ModelRow current = null;
    for (Model.ModelRow row : model.partition(op.p(), now, false)) {
      if (Objects.equals(row.c1(), op.c1()) && Objects.equals(row.c2(), op.c2())) {
        current = row;
      }
    }
    boolean expect;
    ConditionalResult r;
    if (op.insert()) {
      expect = current == null;
      r =
          t.insert()
              .value("p", op.p())
              .value("c1", op.c1())
              .value("c2", op.c2())
              .value("v1", op.value())
              .ifNotExists()
              .executeConditional();
    } else {
      expect = Objects.equals(current == null ? null : current.v1(), op.expected());
      r =
          t.update()
              .where("p", op.p())
              .where("c1", op.c1())
              .where("c2", op.c2())
              .set("v1", op.value())
              .onlyIf(Condition.eq("v1", op.expected()))
              .executeConditional();
    }
    if (r.applied() != expect) {
      return "conditional write: expected applied=" + expect + " on " + current + " but got " + r;
    }
    if (!r.applied()) {
      Integer shown = r.current().map(x -> x.getInt("v1")).orElse(null);
      Integer modelV1 = current == null ? null : current.v1();
      return Objects.equals(shown, modelV1)
          ? null
          : "conditional write: current v1 " + shown + " but the model has " + modelV1;
    }
    long ts =
        t.select()
            .eq("p", op.p())
            .eq("c1", op.c1())
            .eq("c2", op.c2())
            .one()
            .orElseThrow()
            .writeTime("v1");
    if (current != null && current.v1WriteTime() != null && ts <= current.v1WriteTime()) {
      return "conditional write timestamp " + ts + " is not after v1's " + current.v1WriteTime();
    }
    Model.RowKey k = new Model.RowKey(op.c1(), op.c2());
    if (op.insert()) {
      model.marker(op.p(), k, ts, 0, now);
    }
    model.cell(op.p(), k, "v1", op.value(), ts, 0, now);
    return null;
  }
}
