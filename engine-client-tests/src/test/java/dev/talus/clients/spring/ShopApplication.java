package dev.talus.clients.spring;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/** A Spring Boot application with Spring Data Cassandra's auto-configuration and repositories. */
@SpringBootApplication
public class ShopApplication {}
