package dev.talus.request;

/**
 * One element-wise operation of a write on a collection, user type or counter column, as the user
 * described it. Internal.
 *
 * @param kind what to do
 * @param column the column name
 * @param key the map key, list index, user-type field name or set element (PUT, DELETE_ELEMENT)
 * @param value the elements (ADD, REMOVE, PREPEND), the new element value (PUT) or the delta
 *     (INCREMENT, a Long)
 */
public record ElementOp(Kind kind, String column, Object key, Object value) {
  /** The operations, with their CQL forms. */
  public enum Kind {
    /** {@code s = s + {..}}, {@code l = l + [..]}, {@code m = m + {k: v}}. */
    ADD,
    /** {@code s = s - {..}}, {@code l = l - [..]} (reads first), {@code m = m - {k}}. */
    REMOVE,
    /** {@code l = [..] + l}. */
    PREPEND,
    /** {@code m[k] = v}, {@code l[i] = v} (reads first), {@code u.f = v}. */
    PUT,
    /** {@code DELETE m[k]}, {@code DELETE l[i]} (reads first), {@code DELETE s[e]}, {@code u.f}. */
    DELETE_ELEMENT,
    /** {@code c = c + delta}. */
    INCREMENT
  }
}
