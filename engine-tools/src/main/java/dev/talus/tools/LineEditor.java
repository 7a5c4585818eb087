package dev.talus.tools;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.jline.reader.EndOfFileException;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.reader.UserInterruptException;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;
import org.jline.terminal.impl.DumbTerminal;

/**
 * The shell's line editor on a terminal (JLine): editing keys, and a history kept in a file across
 * sessions. Ctrl-C drops the statement being typed, Ctrl-D ends the input. Not thread-safe.
 */
final class LineEditor implements CqlShell.Lines, AutoCloseable {
  private final Terminal terminal;
  private final LineReader reader;

  private LineEditor(Terminal terminal, Path history) throws IOException {
    this.terminal = terminal;
    Files.createDirectories(history.getParent());
    this.reader =
        LineReaderBuilder.builder()
            .terminal(terminal)
            .variable(LineReader.HISTORY_FILE, history)
            // a statement may hold '!' and backslashes: no history expansion or escapes
            .option(LineReader.Option.DISABLE_EVENT_EXPANSION, true)
            .build();
  }

  /** An editor on the process's terminal, with its history in {@code history}. */
  static LineEditor onTerminal(Path history) throws IOException {
    return new LineEditor(TerminalBuilder.builder().system(true).build(), history);
  }

  /** An editor on the given streams (a dumb terminal), for tests. */
  static LineEditor onStreams(InputStream in, OutputStream out, Path history) throws IOException {
    return new LineEditor(new DumbTerminal(in, out), history);
  }

  @Override
  public String read(String prompt) {
    try {
      return reader.readLine(prompt);
    } catch (UserInterruptException e) {
      throw new CqlShell.Interrupted();
    } catch (EndOfFileException e) {
      return null;
    }
  }

  @Override
  public void close() throws IOException {
    reader.getHistory().save();
    terminal.close();
  }
}
