package dev.talus;

/** The on-disk order of a clustering column inside a partition. */
public enum ClusteringOrder {
  ASC,
  DESC;

  public ClusteringOrder reverse() {
    return this == ASC ? DESC : ASC;
  }
}
