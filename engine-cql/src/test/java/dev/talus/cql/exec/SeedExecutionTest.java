package dev.talus.cql.exec;

import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.cql.CqlRow;
import dev.talus.cql.parse.CqlScript;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CQL of the seed documents and of docs/data-modeling.md, executed end to end: every seed
 * statement, in order, runs or fails with a typed error — which one is checked against {@code
 * seed-outcomes.txt} — and the data-model tables the documents design take writes and answer their
 * queries.
 */
class SeedExecutionTest {
  @TempDir Path dir;

  @Test
  void theSeedStatementsRunInOrder() throws IOException {
    String script = CorpusExecutionTest.resource("/dev/talus/cql/parse/seed-statements.cql");
    List<String> outcomes = new ArrayList<>();
    try (CqlDb t = new CqlDb(dir)) {
      for (CqlScript.Piece p : CqlScript.split(script)) {
        String oneLine = p.text().replaceAll("\\s*--[^\\n]*", "").replaceAll("\\s+", " ");
        outcomes.add(Outcomes.run(t.cql, p.text()) + "\t" + oneLine);
      }
      // the tables the seeds design work as designed
      UUID room = UUID.randomUUID();
      t.cql.execute(
          "INSERT INTO messages_by_room (room_id, bucket, sent_at, message_id, sender, body)"
              + " VALUES (?, '2026-09', '2026-09-01 10:00', now(), 'ada', 'hi')",
          room);
      t.cql.execute(
          "INSERT INTO messages_by_room (room_id, bucket, sent_at, message_id, sender, body)"
              + " VALUES (?, '2026-09', '2026-09-02 10:00', now(), 'bob', 'yo')",
          room);
      List<String> bodies = new ArrayList<>();
      for (CqlRow r :
          t.cql.execute(
              "SELECT body FROM messages_by_room WHERE room_id = ? AND bucket = '2026-09' LIMIT 50",
              room)) {
        bodies.add(r.getString("body"));
      }
      assertThat(bodies).containsExactly("yo", "hi"); // newest first, as the schema says
    }
    String out = System.getProperty("talus.cql.outcomes.write");
    if (out != null) {
      Files.writeString(Path.of(out), String.join("\n", outcomes) + "\n");
    }
    assertThat(String.join("\n", outcomes) + "\n")
        .isEqualTo(CorpusExecutionTest.resource("seed-outcomes.txt"));
  }

  @Test
  void theKeysOfDocsDataModelingMakeWorkingTables() throws IOException {
    String doc = Files.readString(Path.of("..", "docs", "data-modeling.md"));
    Matcher block = Pattern.compile("```(\\w*)\\n(.*?)```", Pattern.DOTALL).matcher(doc);
    List<String> keys = new ArrayList<>();
    while (block.find()) {
      if (!block.group(1).equals("java")) {
        for (String line : block.group(2).split("\n")) {
          if (line.strip().startsWith("PRIMARY KEY")) {
            keys.add(line.strip());
          }
        }
      }
    }
    assertThat(keys).isNotEmpty();
    try (CqlDb t = new CqlDb(dir)) {
      int n = 0;
      for (String key : keys) {
        Set<String> columns = new LinkedHashSet<>();
        Matcher names = Pattern.compile("[a-z_]+").matcher(key.substring("PRIMARY KEY".length()));
        while (names.find()) {
          columns.add(names.group());
        }
        String table = "doc_table_" + n++;
        StringBuilder ddl = new StringBuilder("CREATE TABLE " + table + " (");
        for (String c : columns) {
          ddl.append(c).append(" text, ");
        }
        t.cql.execute(ddl.append("payload text, ").append(key).append(")").toString());
        List<String> cols = new ArrayList<>(columns);
        String insert =
            "INSERT INTO "
                + table
                + " ("
                + String.join(", ", cols)
                + ", payload) VALUES ("
                + "?, ".repeat(cols.size())
                + "'p')";
        t.cql.execute(insert, cols.toArray());
        StringBuilder where = new StringBuilder();
        for (String c : cols) {
          where.append(where.length() == 0 ? " WHERE " : " AND ").append(c).append(" = ?");
        }
        assertThat(
                t.cql
                    .execute("SELECT payload FROM " + table + where, cols.toArray())
                    .one()
                    .orElseThrow()
                    .getString(0))
            .isEqualTo("p");
      }
    }
  }
}
