package dev.talus.memtable;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Measures the heap an object graph holds by walking it, for tests: every object reachable from a
 * root, once each (by identity), minus objects declared shared. An object's size comes from the
 * running JVM: field offsets from {@code sun.misc.Unsafe.objectFieldOffset} (the layout HotSpot
 * actually chose, header and padding included), array base offsets and element scales from {@code
 * arrayBaseOffset}/{@code arrayIndexScale}, every object aligned to 8 bytes (HotSpot's default
 * {@code ObjectAlignmentInBytes}). Unsafe refuses field offsets of record classes; for those the
 * size is the header plus the fields' sizes, aligned (HotSpot's field layout since JDK 15 packs
 * fields without gaps beyond the final alignment for every field mix a record here holds). Lambdas
 * (hidden classes) and {@code Class} objects are shared by nature and not counted.
 *
 * <p>Unsafe is reached reflectively (it is exported and opened by {@code jdk.unsupported}), so the
 * walk needs no {@code --add-opens}. Not thread-safe; walk a graph nobody modifies.
 */
public final class RetainedHeap {
  private static final MethodHandle FIELD_OFFSET;
  private static final MethodHandle GET_REFERENCE;
  private static final MethodHandle ARRAY_BASE;
  private static final MethodHandle ARRAY_SCALE;
  private static final int ARRAY_BYTE_BASE;
  private static final int REF_SIZE;

  static {
    try {
      Class<?> unsafeClass = Class.forName("sun.misc.Unsafe");
      Field the = unsafeClass.getDeclaredField("theUnsafe");
      the.setAccessible(true);
      Object unsafe = the.get(null);
      MethodHandles.Lookup l = MethodHandles.lookup();
      FIELD_OFFSET =
          l.findVirtual(
                  unsafeClass, "objectFieldOffset", MethodType.methodType(long.class, Field.class))
              .bindTo(unsafe);
      GET_REFERENCE =
          l.findVirtual(
                  unsafeClass,
                  "getObject",
                  MethodType.methodType(Object.class, Object.class, long.class))
              .bindTo(unsafe);
      MethodHandle base =
          l.findVirtual(
                  unsafeClass, "arrayBaseOffset", MethodType.methodType(int.class, Class.class))
              .bindTo(unsafe);
      MethodHandle scale =
          l.findVirtual(
                  unsafeClass, "arrayIndexScale", MethodType.methodType(int.class, Class.class))
              .bindTo(unsafe);
      ARRAY_BYTE_BASE = (int) base.invoke(byte[].class);
      REF_SIZE = (int) scale.invoke(Object[].class);
      ARRAY_BASE = base;
      ARRAY_SCALE = scale;
    } catch (Throwable t) {
      throw new ExceptionInInitializerError(t);
    }
  }

  /** An instance header: an array's base offset less its 4-byte length. */
  private static final int HEADER = ARRAY_BYTE_BASE - 4;

  private final Map<Class<?>, Layout> layouts = new HashMap<>();
  private final Set<Object> shared = Collections.newSetFromMap(new IdentityHashMap<>());

  /** What a walk found: total bytes and, per class name, {objects, bytes}. */
  public record Result(long bytes, Map<String, long[]> byClass) {
    long objects(Class<?> c) {
      long[] v = byClass.get(c.getName());
      return v == null ? 0 : v[0];
    }

    long bytesOf(Class<?> c) {
      long[] v = byClass.get(c.getName());
      return v == null ? 0 : v[1];
    }

    long objects(String className) {
      long[] v = byClass.get(className);
      return v == null ? 0 : v[0];
    }

    long bytesOf(String className) {
      long[] v = byClass.get(className);
      return v == null ? 0 : v[1];
    }
  }

  /** Declares the static reference fields' values of {@code classes} shared (not counted). */
  public RetainedHeap sharedStaticsOf(Class<?>... classes) {
    for (Class<?> c : classes) {
      for (Field f : c.getDeclaredFields()) {
        if (Modifier.isStatic(f.getModifiers()) && !f.getType().isPrimitive()) {
          try {
            f.setAccessible(true);
            Object v = f.get(null);
            if (v != null) {
              shared.add(v);
            }
          } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
          }
        }
      }
    }
    return this;
  }

  /** Declares {@code objects} shared (not counted, and not walked through). */
  public RetainedHeap shared(Object... objects) {
    for (Object o : objects) {
      if (o != null) {
        shared.add(o);
      }
    }
    return this;
  }

  /** Walks everything reachable from the {@code roots} (included) that is not shared. */
  public Result measure(Object... roots) {
    Set<Object> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    ArrayDeque<Object> todo = new ArrayDeque<>();
    for (Object root : roots) {
      todo.push(root);
    }
    Map<String, long[]> byClass = new TreeMap<>();
    long total = 0;
    while (!todo.isEmpty()) {
      Object o = todo.pop();
      if (shared.contains(o) || !seen.add(o)) {
        continue;
      }
      Class<?> c = o.getClass();
      if (c.isHidden() || o instanceof Class<?>) {
        continue;
      }
      long size;
      if (c.isArray()) {
        int length = java.lang.reflect.Array.getLength(o);
        size = align(arrayBase(c) + (long) arrayScale(c) * length);
        if (!c.getComponentType().isPrimitive()) {
          for (Object e : (Object[]) o) {
            if (e != null) {
              todo.push(e);
            }
          }
        }
      } else {
        Layout layout = layouts.computeIfAbsent(c, RetainedHeap::layout);
        size = layout.size;
        for (Field f : layout.references) {
          Object v = read(o, f, layout.offsets.get(f));
          if (v != null) {
            todo.push(v);
          }
        }
      }
      total += size;
      long[] v = byClass.computeIfAbsent(c.getName(), k -> new long[2]);
      v[0]++;
      v[1] += size;
    }
    return new Result(total, byClass);
  }

  private static Object read(Object o, Field f, Long offset) {
    try {
      if (offset != null) {
        return GET_REFERENCE.invoke(o, (long) offset);
      }
      return f.get(o); // a record's field, made accessible by layout()
    } catch (Throwable t) {
      throw new IllegalStateException("cannot read " + f, t);
    }
  }

  private record Layout(long size, List<Field> references, Map<Field, Long> offsets) {}

  private static Layout layout(Class<?> c) {
    List<Field> refs = new ArrayList<>();
    Map<Field, Long> offsets = new HashMap<>();
    long end = HEADER;
    long sum = HEADER;
    boolean record = c.isRecord();
    for (Class<?> k = c; k != null; k = k.getSuperclass()) {
      for (Field f : k.getDeclaredFields()) {
        if (Modifier.isStatic(f.getModifiers())) {
          continue;
        }
        int size = fieldSize(f.getType());
        sum += size;
        if (record) {
          f.setAccessible(true);
        } else {
          long offset;
          try {
            offset = (long) FIELD_OFFSET.invoke(f);
          } catch (Throwable t) {
            throw new IllegalStateException("no offset for " + f, t);
          }
          end = Math.max(end, offset + size);
          if (!f.getType().isPrimitive()) {
            offsets.put(f, offset);
          }
        }
        if (!f.getType().isPrimitive()) {
          refs.add(f);
        }
      }
    }
    return new Layout(align(record ? sum : end), refs, offsets);
  }

  private static int fieldSize(Class<?> t) {
    if (!t.isPrimitive()) {
      return REF_SIZE;
    }
    if (t == long.class || t == double.class) {
      return 8;
    }
    if (t == int.class || t == float.class) {
      return 4;
    }
    if (t == short.class || t == char.class) {
      return 2;
    }
    return 1;
  }

  private static int arrayBase(Class<?> c) {
    try {
      return (int) ARRAY_BASE.invoke(c);
    } catch (Throwable t) {
      throw new IllegalStateException(t);
    }
  }

  private static int arrayScale(Class<?> c) {
    try {
      return (int) ARRAY_SCALE.invoke(c);
    } catch (Throwable t) {
      throw new IllegalStateException(t);
    }
  }

  private static long align(long bytes) {
    return (bytes + 7) & ~7L;
  }
}
