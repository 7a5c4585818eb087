package dev.talus.testkit.server;

import static dev.talus.testkit.TalusAssertions.assertThatPartition;
import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.Table;
import dev.talus.testkit.TalusTestDb;
import dev.talus.testkit.server.OrderDao.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** docs/testing-data-models.md quotes this class ({@code DriverTutorialDocTest} checks it). */
class OrderDaoTest {
  // tag::extension[]
  @RegisterExtension
  static final TalusServerExtension talus = TalusServerExtension.create().keyspace("shop");

  // end::extension[]

  // tag::crud[]
  @Test
  void savesFindsAndCancelsOrders() {
    OrderDao dao = new OrderDao(talus.session()); // a connected CqlSession, keyspace shop
    dao.save(new Order("ada", 1, "keyboard", 1));
    dao.save(new Order("ada", 2, "cable", 3));
    dao.save(new Order("bob", 1, "mouse", 2));

    assertThat(dao.ordersOf("ada")).extracting(Order::item).containsExactly("keyboard", "cable");
    dao.cancel("ada", 1);
    assertThat(dao.find("ada", 1)).isEmpty();
    assertThat(dao.find("ada", 2)).contains(new Order("ada", 2, "cable", 3));
  }

  // end::crud[]

  // tag::tombstones[]
  @Test
  void aCancelledOrderLeavesATombstoneUntilGcGraceAndACompaction() {
    OrderDao dao = new OrderDao(talus.session());
    dao.save(new Order("ada", 1, "keyboard", 1));
    dao.cancel("ada", 1);

    TalusTestDb db = talus.db(); // the testkit's database behind the server
    Table orders = db.db().table("shop", "orders");
    db.flush(orders);
    assertThatPartition(orders, "ada").hasRows(0).hasTombstones(1);
    db.advancePastGcGrace(orders); // the server's clock is the manual clock
    db.compactAll(orders);
    assertThatPartition(orders, "ada").isNotStored();
  }
  // end::tombstones[]
}
