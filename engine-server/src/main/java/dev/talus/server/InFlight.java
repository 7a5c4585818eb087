package dev.talus.server;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One request handed to a worker, answered exactly once: by its worker with its result, or — when
 * it has a {@link Deadline} and the request timeout passes first — by the server's timeout sweep
 * ({@link ServerState#sweep}) with Cassandra's timeout error, whether it still waits for a worker
 * (then it never runs) or already runs (then it runs to its end and its result is dropped: a
 * running statement is not stopped). Its slot in the in-flight counts is freed with the answer.
 * Thread-safe.
 */
final class InFlight {
  private static final int QUEUED = 0;
  private static final int RUNNING = 1;
  private static final int ANSWERED = 2;

  private final ServerState server;
  private final AtomicInteger connectionCount;
  private final ChannelHandlerContext ctx;
  private final int version;
  private final int stream;
  private final Deadline deadline; // null: no timeout (PREPARE)
  private final long arrivedMillis;
  private final AtomicInteger state = new AtomicInteger(QUEUED);

  InFlight(
      ServerState server,
      AtomicInteger connectionCount,
      ChannelHandlerContext ctx,
      int version,
      int stream,
      Deadline deadline,
      long arrivedMillis) {
    this.server = server;
    this.connectionCount = connectionCount;
    this.ctx = ctx;
    this.version = version;
    this.stream = stream;
    this.deadline = deadline;
    this.arrivedMillis = arrivedMillis;
  }

  Deadline deadline() {
    return deadline;
  }

  /**
   * Called by the worker before it runs the statement.
   *
   * @return false if the request was answered (timed out) while it waited: do not run it
   */
  boolean start() {
    return state.compareAndSet(QUEUED, RUNNING);
  }

  /** The worker's answer; dropped (and released) if the timeout answered first. */
  void answer(ByteBuf out) {
    if (state.getAndSet(ANSWERED) == ANSWERED) {
      out.release();
      return;
    }
    send(out);
  }

  /**
   * Answers the timeout error if the request has a deadline and has been in flight longer than
   * {@code timeoutMillis} at {@code nowMillis}.
   *
   * @return true if this call answered it
   */
  boolean expire(long nowMillis, long timeoutMillis) {
    long waited = nowMillis - arrivedMillis;
    if (deadline == null || waited <= timeoutMillis) {
      return false;
    }
    while (true) {
      int s = state.get();
      if (s == ANSWERED) {
        return false;
      }
      // built before the answer is claimed, so that nothing can fail between claim and send
      ByteBuf error =
          deadline.error(ctx.alloc(), version, stream, waited, timeoutMillis, s == RUNNING);
      if (state.compareAndSet(s, ANSWERED)) {
        send(error);
        return true;
      }
      error.release();
    }
  }

  private void send(ByteBuf out) {
    server.forget(this);
    // free the slot before the answer leaves: a client that has its answer may send the next
    // request at once, and must find the room it left
    server.release(connectionCount);
    ctx.writeAndFlush(out);
  }
}
