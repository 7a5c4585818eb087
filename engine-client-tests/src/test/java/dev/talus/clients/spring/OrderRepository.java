package dev.talus.clients.spring;

import java.util.List;
import org.springframework.data.cassandra.core.mapping.MapId;
import org.springframework.data.cassandra.repository.CassandraRepository;

/** A Spring Data repository: CRUD from CassandraRepository plus one derived query. */
public interface OrderRepository extends CassandraRepository<Order, MapId> {
  /** Derived: {@code SELECT * FROM orders WHERE customer = ?}. */
  List<Order> findByCustomer(String customer);
}
