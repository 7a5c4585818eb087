package dev.talus.tools;

import java.time.Duration;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Parses {@code 500ms}, {@code 30s}, {@code 2m}, {@code 1h} or ISO-8601 {@code PT30S}. */
final class DurationConverter implements ITypeConverter<Duration> {
  @Override
  public Duration convert(String s) {
    try {
      if (s.startsWith("P") || s.startsWith("p")) {
        return Duration.parse(s);
      }
      if (s.endsWith("ms")) {
        return Duration.ofMillis(Long.parseLong(s.substring(0, s.length() - 2)));
      }
      long n = Long.parseLong(s.substring(0, s.length() - 1));
      return switch (s.charAt(s.length() - 1)) {
        case 's' -> Duration.ofSeconds(n);
        case 'm' -> Duration.ofMinutes(n);
        case 'h' -> Duration.ofHours(n);
        default -> throw new NumberFormatException();
      };
    } catch (RuntimeException e) {
      throw new TypeConversionException(
          "'" + s + "' is not a duration: use e.g. 500ms, 30s, 2m, 1h or PT30S");
    }
  }
}
