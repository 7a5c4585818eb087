package dev.talus.request;

import dev.talus.ResultRow;
import java.util.List;

/**
 * The rows of one read, the paging state for the next page (null if none), and what the read cost:
 * sources merged (summed over partitions) and tombstones scanned. Internal.
 */
public record ReadResult(
    List<ResultRow> rows, byte[] pagingState, int sourcesTouched, int tombstonesScanned) {}
