package dev.talus.cql.parse.ast;

/** The arithmetic operators of terms and selectors (CQL 3.4.5 and later). */
public enum ArithmeticOperator {
  ADD("+", 1),
  SUBTRACT("-", 1),
  MULTIPLY("*", 2),
  DIVIDE("/", 2),
  MODULO("%", 2);

  private final String symbol;
  private final int precedence;

  ArithmeticOperator(String symbol, int precedence) {
    this.symbol = symbol;
    this.precedence = precedence;
  }

  /**
   * Returns the operator as written.
   *
   * @return e.g. {@code "+"}
   */
  public String symbol() {
    return symbol;
  }

  /**
   * Returns how tightly the operator binds: 2 for {@code * / %}, 1 for {@code + -}.
   *
   * @return the precedence
   */
  public int precedence() {
    return precedence;
  }
}
