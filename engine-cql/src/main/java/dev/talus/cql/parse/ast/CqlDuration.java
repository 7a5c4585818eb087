package dev.talus.cql.parse.ast;

/**
 * A duration literal's value, as Cassandra keeps durations: months, days and nanoseconds, all of
 * the same sign. The executor turns it into {@code dev.talus.DurationValue} with {@code
 * DurationValue.of(months(), days(), nanoseconds())}.
 *
 * @param months the months (a year is 12)
 * @param days the days (a week is 7)
 * @param nanoseconds the nanoseconds (hours and below)
 */
public record CqlDuration(int months, int days, long nanoseconds) {}
