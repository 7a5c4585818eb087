package dev.talus.engine;

import dev.talus.ResultRow;
import java.util.List;

/** The rows of one read and the paging state for the next page (null if none). Internal. */
public record ReadResult(List<ResultRow> rows, byte[] pagingState) {}
