package dev.talus.tools;

import dev.talus.CorruptDataException;
import dev.talus.Table;
import dev.talus.TalusDb;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code talus verify DIR}: opens the database and checks every checksum of every SSTable. */
@Command(
    name = "verify",
    description = {
      "Open the database (replaying the commit log, whose records are checksummed too) and check"
          + " every checksum of every SSTable of every table.",
      "Exit status 0 if everything matched, 2 if something is corrupt (file and offset printed),"
          + " 1 for other errors, 3 if the directory is locked."
    })
public final class VerifyCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "DIR", description = "The data directory.")
  Path dir;

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    int corrupt = 0;
    int checked = 0;
    // a corrupt schema or commit log fails the open: the handler reports it with exit status 2
    try (TalusDb db = DataDirs.openExisting(dir)) {
      out.println("commit log replayed: OK");
      for (Table t : db.tables().stream().sorted(Comparator.comparing(Table::name)).toList()) {
        try {
          int n = t.verify();
          checked += n;
          out.println(t.name() + ": " + n + " SSTable(s) OK");
        } catch (CorruptDataException e) {
          corrupt++;
          out.println(t.name() + ": CORRUPT");
          err.println("corrupt: " + e.getMessage());
          err.println("  file:   " + e.file());
          err.println("  offset: " + e.offset());
        }
      }
    }
    if (corrupt > 0) {
      out.println(corrupt + " table(s) with corrupt SSTables");
    } else {
      out.println("verified " + checked + " SSTable(s): every checksum matched");
    }
    out.flush();
    err.flush();
    return corrupt > 0 ? ExitCodes.CORRUPT : ExitCodes.OK;
  }
}
