package dev.talus.clients.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.testkit.TalusTestDb;
import dev.talus.testkit.server.TalusTestServer;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.cassandra.core.CassandraTemplate;
import org.springframework.data.cassandra.core.mapping.BasicMapId;
import org.springframework.data.cassandra.core.mapping.MapId;

/**
 * A Spring Boot application with {@code spring-boot-starter-data-cassandra}, unchanged, against
 * Talus: Boot's auto-configuration builds the driver session from {@code spring.cassandra.*},
 * Spring Data creates the table from the entity and runs the repository's CRUD and derived query.
 */
class SpringDataCassandraTest {
  static TalusTestServer talus;
  static ConfigurableApplicationContext spring;
  static OrderRepository orders;

  @BeforeAll
  static void start() {
    talus = TalusTestServer.start(TalusTestDb.create(), "shop");
    spring =
        new SpringApplicationBuilder(ShopApplication.class)
            .web(WebApplicationType.NONE)
            .properties(
                "spring.cassandra.contact-points=127.0.0.1:" + talus.address().getPort(),
                "spring.cassandra.local-datacenter=" + TalusTestServer.DATACENTER,
                "spring.cassandra.keyspace-name=shop",
                "spring.cassandra.schema-action=create_if_not_exists",
                "spring.cassandra.connection.connect-timeout=60s",
                "spring.cassandra.connection.init-query-timeout=60s",
                "spring.cassandra.request.timeout=60s",
                "spring.main.banner-mode=off")
            .run();
    orders = spring.getBean(OrderRepository.class);
  }

  @AfterAll
  static void stop() {
    if (spring != null) {
      spring.close();
    }
    if (talus != null) {
      talus.close();
    }
  }

  /**
   * Each test starts on an empty table, emptied by the repository itself: Spring Data runs {@code
   * deleteAll()} as CQL {@code TRUNCATE}.
   */
  @BeforeEach
  void emptyTheTable() {
    orders.deleteAll();
    assertThat(orders.count()).isZero();
  }

  private static MapId id(String customer, int id) {
    return BasicMapId.id("customer", customer).with("id", id);
  }

  @Test
  void repositoryCrudRunsAgainstTalus() {
    orders.save(new Order("ada", 1, "keyboard", 1));
    orders.saveAll(List.of(new Order("ada", 2, "cable", 3), new Order("bob", 1, "mouse", 2)));

    assertThat(orders.count()).isEqualTo(3); // Spring Data sends SELECT count(1) FROM orders
    assertThat(orders.findAll()).hasSize(3);
    assertThat(orders.findById(id("ada", 2)))
        .hasValueSatisfying(o -> assertThat(o.getItem()).isEqualTo("cable"));
    assertThat(orders.existsById(id("bob", 1))).isTrue();
    assertThat(orders.findAll())
        .extracting(Order::getItem)
        .containsExactlyInAnyOrder("keyboard", "cable", "mouse");

    Order changed = orders.findById(id("ada", 2)).orElseThrow();
    changed.setQuantity(4);
    orders.save(changed);
    assertThat(orders.findById(id("ada", 2)).orElseThrow().getQuantity()).isEqualTo(4);

    orders.deleteById(id("ada", 1));
    assertThat(orders.findById(id("ada", 1))).isEmpty();
    assertThat(orders.findAll()).hasSize(2);
    assertThat(orders.count()).isEqualTo(2);
  }

  @Test
  void derivedQueryReadsOnePartitionInClusteringOrder() {
    orders.save(new Order("cy", 2, "lamp", 1));
    orders.save(new Order("cy", 1, "desk", 1));
    orders.save(new Order("dee", 1, "chair", 4));

    assertThat(orders.findByCustomer("cy"))
        .extracting(Order::getItem)
        .containsExactly("desk", "lamp");
    assertThat(orders.findByCustomer("nobody")).isEmpty();
  }

  @Test
  void theTableSpringCreatedIsATalusTable() {
    CassandraTemplate template = spring.getBean(CassandraTemplate.class);
    orders.save(new Order("eve", 1, "pen", 10));
    assertThat(template.select("SELECT * FROM orders WHERE customer = 'eve'", Order.class))
        .extracting(Order::getQuantity)
        .containsExactly(10);
    // the row Spring wrote, read through the engine's own API
    assertThat(talus.table("shop", "orders").select().eq("customer", "eve").eq("id", 1).one())
        .hasValueSatisfying(r -> assertThat(r.getString("item")).isEqualTo("pen"));
  }
}
