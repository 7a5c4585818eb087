package dev.talus.db;

import dev.talus.IndexDef;
import dev.talus.index.IndexProgress;
import dev.talus.runtime.DbContext;
import dev.talus.sstable.SSTableReader;
import dev.talus.table.TableStore;
import java.io.IOException;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The background build of one index over the SSTables a table had when the build was queued (by
 * CREATE INDEX on a table with data, or at open when a component is missing): one SSTable after the
 * other, each made to hold the index's components ({@code SSTableIndexes.buildOne}), then the index
 * becomes queryable. SSTables that arrive meanwhile need nothing: flushes and compactions write the
 * components of every defined index, and one that missed it (a flush that began before the index
 * existed) is built by the first read that needs it, as a damaged component is. The build stops,
 * leaving the index building, when the database closes (the next open resumes it) or the index is
 * dropped; a full disk ("No space left on device" writing a component) leaves it building and hands
 * the rest of the build to the disk-full retries ({@link DiskFullRetries}), which go on from the
 * SSTable it failed on; any other failure makes the index failed with the reason. Stateless.
 */
final class IndexBuildJob {
  private static final Logger LOG = LoggerFactory.getLogger(IndexBuildJob.class);

  private IndexBuildJob() {}

  /** Queues the build {@code p} of {@code def} over {@code sstables} of {@code store}. */
  static void schedule(
      BackgroundJobs jobs,
      DbContext ctx,
      TableStore store,
      IndexDef def,
      IndexProgress p,
      List<SSTableReader> sstables) {
    if (sstables.isEmpty()) {
      p.finished();
      return;
    }
    List<SSTableReader> todo = List.copyOf(sstables);
    jobs.scheduleIndexBuild(
        () -> {
          LOG.info(
              "Building index {} of table {} over {} SSTables",
              def.name(),
              store.schema().name(),
              todo.size());
          build(jobs, ctx, store, def, p, todo, false);
        });
  }

  /**
   * Builds {@code todo} in order, then makes the index queryable. With {@code firstOnly} (a
   * disk-full retry, on the retry thread) it builds the first and queues the rest as a new job.
   */
  private static void build(
      BackgroundJobs jobs,
      DbContext ctx,
      TableStore store,
      IndexDef def,
      IndexProgress p,
      List<SSTableReader> todo,
      boolean firstOnly) {
    String table = store.schema().name();
    int done = 0;
    try {
      for (SSTableReader r : todo) {
        if (ctx.isClosed()) {
          return; // still building: the next open resumes it
        }
        if (firstOnly && done == 1) {
          List<SSTableReader> rest = todo.subList(1, todo.size());
          jobs.scheduleIndexBuild(() -> build(jobs, ctx, store, def, p, rest, false));
          return;
        }
        if (!store.indexes().buildOne(p, def, r, store.keys())) {
          return; // dropped
        }
        p.builtOne();
        done++;
      }
      p.finished();
      LOG.info("Index {} of table {} is built and queryable", def.name(), table);
    } catch (IOException | RuntimeException e) {
      if (ctx.isClosed()) {
        return;
      }
      if (e instanceof IOException io && DiskFullRetries.isDiskFull(io) && !ctx.isStopped()) {
        // still building: the disk-full retries build this SSTable again, then the rest
        List<SSTableReader> rest = todo.subList(done, todo.size());
        jobs.diskFull()
            .failedIndexBuild(
                "build of index " + def.name() + " of table " + table + " in " + store.directory(),
                io,
                () -> build(jobs, ctx, store, def, p, rest, true));
        return;
      }
      LOG.error("Building index {} of table {} failed", def.name(), table, e);
      p.failed(e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage());
    }
  }
}
