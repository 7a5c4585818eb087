package dev.talus.longrun;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Properties;

/**
 * The progress of a long test loop (the kill -9 crash loop, the model fuzzing), kept in a small
 * properties file so that a run stopped half-way — a time budget, a closed laptop, a killed build —
 * goes on where it stopped when started again with the same file ({@code
 * -Dtalus.crash.resume=/abs/path}, {@code -Dtalus.fuzz.resume=/abs/path}). Every save replaces the
 * file through a temporary file and a rename, so a run killed while saving keeps the previous
 * state. Without a file ({@link #none()}) nothing is kept. Not thread-safe: one loop owns it.
 */
public final class ResumeState {
  private final Path file;
  private final Properties values = new Properties();

  private ResumeState(Path file) {
    this.file = file;
    if (file != null && Files.exists(file)) {
      try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
        values.load(r);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read the resume file " + file, e);
      }
    }
  }

  /** The state in the file named by system property {@code property}, or none if it is unset. */
  public static ResumeState fromProperty(String property) {
    String p = System.getProperty(property);
    return p == null || p.isBlank() ? none() : new ResumeState(Path.of(p).toAbsolutePath());
  }

  /** The state in {@code file} (empty if the file does not exist yet). */
  public static ResumeState of(Path file) {
    return new ResumeState(file);
  }

  /** A state that keeps nothing. */
  public static ResumeState none() {
    return new ResumeState(null);
  }

  /** Whether this run resumes an earlier one (the file held progress). */
  public boolean resumed() {
    return !values.isEmpty();
  }

  public String describe() {
    return file == null ? "no resume file" : "resume file " + file;
  }

  public boolean has(String key) {
    return values.containsKey(key);
  }

  public long get(String key, long otherwise) {
    String v = values.getProperty(key);
    return v == null ? otherwise : Long.parseLong(v);
  }

  /**
   * Records what the run was started with: a file written by a run with other settings is refused,
   * since its progress would not mean the same.
   */
  public void requireSame(String key, String value) {
    String old = values.getProperty(key);
    if (old != null && !old.equals(value)) {
      throw new IllegalStateException(
          describe()
              + " was written by a run with "
              + key
              + "="
              + old
              + ", not "
              + value
              + ": start with the same settings or a new file");
    }
    values.setProperty(key, value);
  }

  public void put(String key, long value) {
    values.setProperty(key, Long.toString(value));
  }

  /** Writes the state durably-enough for a test (temporary file, then an atomic rename). */
  public void save() {
    if (file == null) {
      return;
    }
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    try {
      if (file.getParent() != null) {
        Files.createDirectories(file.getParent());
      }
      try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
        values.store(w, "progress of a long Talus test run; delete it to start over");
      }
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the resume file " + file, e);
    }
  }
}
