package dev.talus.clients.spring;

import org.springframework.data.cassandra.core.cql.PrimaryKeyType;
import org.springframework.data.cassandra.core.mapping.Column;
import org.springframework.data.cassandra.core.mapping.PrimaryKeyColumn;
import org.springframework.data.cassandra.core.mapping.Table;

/** A Spring Data Cassandra entity: orders partitioned by customer, clustered by id. */
@Table("orders")
public class Order {
  @PrimaryKeyColumn(name = "customer", ordinal = 0, type = PrimaryKeyType.PARTITIONED)
  private String customer;

  @PrimaryKeyColumn(name = "id", ordinal = 1, type = PrimaryKeyType.CLUSTERED)
  private int id;

  @Column("item")
  private String item;

  @Column("quantity")
  private int quantity;

  public Order() {}

  public Order(String customer, int id, String item, int quantity) {
    this.customer = customer;
    this.id = id;
    this.item = item;
    this.quantity = quantity;
  }

  public String getCustomer() {
    return customer;
  }

  public void setCustomer(String customer) {
    this.customer = customer;
  }

  public int getId() {
    return id;
  }

  public void setId(int id) {
    this.id = id;
  }

  public String getItem() {
    return item;
  }

  public void setItem(String item) {
    this.item = item;
  }

  public int getQuantity() {
    return quantity;
  }

  public void setQuantity(int quantity) {
    this.quantity = quantity;
  }

  @Override
  public String toString() {
    return "Order{" + customer + "/" + id + ": " + quantity + " x " + item + "}";
  }
}
