package dev.talus.testkit.server;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import java.util.List;
import java.util.Optional;

// tag::dao[]
/** An application's data access object: plain Java driver code, nothing Talus-specific. */
final class OrderDao {
  record Order(String customer, int id, String item, int quantity) {}

  private final CqlSession session;
  private final PreparedStatement insert;
  private final PreparedStatement byCustomer;
  private final PreparedStatement one;
  private final PreparedStatement cancel;

  OrderDao(CqlSession session) {
    this.session = session;
    session.execute(
        "CREATE TABLE IF NOT EXISTS orders (customer text, id int, item text, quantity int,"
            + " PRIMARY KEY (customer, id))");
    insert =
        session.prepare("INSERT INTO orders (customer, id, item, quantity) VALUES (?, ?, ?, ?)");
    byCustomer = session.prepare("SELECT * FROM orders WHERE customer = ?");
    one = session.prepare("SELECT * FROM orders WHERE customer = ? AND id = ?");
    cancel = session.prepare("DELETE FROM orders WHERE customer = ? AND id = ?");
  }

  void save(Order o) {
    session.execute(insert.bind(o.customer(), o.id(), o.item(), o.quantity()));
  }

  List<Order> ordersOf(String customer) {
    return session.execute(byCustomer.bind(customer)).all().stream().map(OrderDao::order).toList();
  }

  Optional<Order> find(String customer, int id) {
    return Optional.ofNullable(session.execute(one.bind(customer, id)).one()).map(OrderDao::order);
  }

  void cancel(String customer, int id) {
    session.execute(cancel.bind(customer, id));
  }

  private static Order order(Row r) {
    return new Order(
        r.getString("customer"), r.getInt("id"), r.getString("item"), r.getInt("quantity"));
  }
}
// end::dao[]
