package dev.talus.tools;

import dev.talus.DataType;
import dev.talus.DiskFailurePolicy;
import java.time.Instant;
import java.time.InstantSource;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/**
 * What the inspection commands share: how the data directory is opened (disk failure policy,
 * damaged commit-log records) and which "now" judges TTL and gc_grace. A picocli mixin.
 */
final class OpenOptions {
  @Option(
      names = "--disk-failure-policy",
      defaultValue = "fail",
      paramLabel = "fail|quarantine",
      description =
          "What a damaged SSTable or manifest does at open: fail (default) refuses to open;"
              + " quarantine moves a damaged SSTable's files to quarantine/ in its table directory"
              + " (this changes the directory, as the engine would) and sets a table with a"
              + " damaged manifest aside, so every other table can be inspected.")
  DiskFailurePolicy diskFailurePolicy;

  @Option(
      names = "--skip-corrupt-commit-log",
      description =
          "Skip commit-log records that fail their checksum instead of refusing to open (their"
              + " writes are lost; the replay that follows flushes the rest).")
  boolean skipCorruptCommitLog;

  @Option(
      names = "--now",
      paramLabel = "INSTANT",
      converter = InstantConverter.class,
      description =
          "Judge TTL expiry and gc_grace at this instant instead of the wall clock, e.g. for data"
              + " written under a manual clock: ISO-8601 (2026-09-01T09:00:00Z), a date"
              + " (UTC midnight) or epoch milliseconds.")
  Instant now;

  /** The clock the database is opened with: fixed at {@code --now}, else the wall clock. */
  InstantSource clock() {
    return now == null ? InstantSource.system() : InstantSource.fixed(now);
  }

  /** The line saying which "now" was used. */
  String describeNow(Instant used) {
    return now == null
        ? used.truncatedTo(java.time.temporal.ChronoUnit.SECONDS)
            + " (wall clock; --now INSTANT judges TTL and gc_grace at another instant)"
        : used + " (--now)";
  }

  /** Parses {@code --now} like a timestamp key value. */
  static final class InstantConverter implements ITypeConverter<Instant> {
    @Override
    public Instant convert(String s) {
      try {
        return (Instant) ValueParser.parse(DataType.TIMESTAMP, s);
      } catch (RuntimeException e) {
        throw new TypeConversionException(
            "'" + s + "' is not an instant: use e.g. 2026-09-01T09:00:00Z, 2026-09-01 or epoch ms");
      }
    }
  }
}
