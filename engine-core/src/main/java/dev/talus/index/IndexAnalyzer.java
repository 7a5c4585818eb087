package dev.talus.index;

import dev.talus.IndexDef;
import dev.talus.InvalidQueryException;
import java.text.Normalizer;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;

/**
 * The analysis of an index on text, after Cassandra 5.0's non-tokenizing analyzer ({@code
 * index/sai/analyzer/NonTokenizingOptions.java}): the options {@code case_sensitive} (default
 * true), {@code normalize} (Unicode NFC, default false) and {@code ascii} (fold accented letters to
 * their base letters, default false). The indexed value and the query value go through the same
 * analysis, and so does the recheck of each row read. Immutable and thread-safe.
 *
 * <p>Talus folds to ASCII by decomposing (NFD) and dropping the combining marks, so {@code é}
 * becomes {@code e}; letters without a decomposition ({@code ß}, {@code æ}, {@code ø}) stay as they
 * are, where Cassandra's Lucene folding would rewrite them.
 *
 * @param caseSensitive false to compare in lower case
 * @param normalize true to compare in Unicode NFC
 * @param ascii true to compare with accents removed
 */
public record IndexAnalyzer(boolean caseSensitive, boolean normalize, boolean ascii)
    implements UnaryOperator<String> {
  /** The option names, as Cassandra spells them. */
  public static final String CASE_SENSITIVE = "case_sensitive";

  public static final String NORMALIZE = "normalize";
  public static final String ASCII = "ascii";

  /** Every analysis option. */
  public static final Set<String> OPTIONS = Set.of(CASE_SENSITIVE, NORMALIZE, ASCII);

  /** No analysis: the value as written. */
  public static final IndexAnalyzer NONE = new IndexAnalyzer(true, false, false);

  private static final Pattern MARKS = Pattern.compile("\\p{M}+");

  /**
   * The analyzer {@code def}'s options ask for; {@link #NONE} without analysis options.
   *
   * @throws InvalidQueryException if an option's value is not true or false
   */
  public static IndexAnalyzer of(IndexDef def) {
    Map<String, String> o = def.options();
    return new IndexAnalyzer(
        flag(o, CASE_SENSITIVE, true), flag(o, NORMALIZE, false), flag(o, ASCII, false));
  }

  /** True if {@code def} has any analysis option (even one that leaves values unchanged). */
  public static boolean isAnalyzed(IndexDef def) {
    for (String k : OPTIONS) {
      if (def.options().containsKey(k)) {
        return true;
      }
    }
    return false;
  }

  /** True if this analyzer changes some values. */
  public boolean changes() {
    return !caseSensitive || normalize || ascii;
  }

  /** {@code value} as the index holds it. */
  @Override
  public String apply(String value) {
    return analyze(value);
  }

  /** {@code value} as the index holds it. */
  public String analyze(String value) {
    String v = value;
    if (normalize) {
      v = Normalizer.normalize(v, Normalizer.Form.NFC);
    }
    if (ascii) {
      v = MARKS.matcher(Normalizer.normalize(v, Normalizer.Form.NFD)).replaceAll("");
      if (normalize) {
        v = Normalizer.normalize(v, Normalizer.Form.NFC);
      }
    }
    if (!caseSensitive) {
      v = v.toLowerCase(Locale.ROOT);
    }
    return v;
  }

  private static boolean flag(Map<String, String> options, String name, boolean absent) {
    String v = options.get(name);
    if (v == null) {
      return absent;
    }
    return switch (v.trim().toLowerCase(Locale.ROOT)) {
      case "true" -> true;
      case "false" -> false;
      default ->
          throw new InvalidQueryException(
              "Illegal value for boolean option '" + name + "': " + v + " (use true or false)");
    };
  }
}
