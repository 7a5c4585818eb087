package dev.talus.cql;

import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.TalusException;
import org.junit.jupiter.api.Test;

class CqlSyntaxExceptionTest {

  @Test
  void carriesItsLocationTokenAndReasonAndIsATalusException() {
    CqlSyntaxException e =
        new CqlSyntaxException(2, 7, "FROM", "unexpected FROM; expected a name", "WHERE FROM");
    assertThat(e).isInstanceOf(TalusException.class);
    assertThat(e.line()).isEqualTo(2);
    assertThat(e.column()).isEqualTo(7);
    assertThat(e.token()).isEqualTo("FROM");
    assertThat(e.reason()).isEqualTo("unexpected FROM; expected a name");
    assertThat(e.getMessage())
        .isEqualTo("line 2:7: unexpected FROM; expected a name\n  WHERE FROM\n        ^^^^");
  }

  @Test
  void theCaretKeepsTabsAndStaysOnTheLine() {
    CqlSyntaxException tabs = new CqlSyntaxException(1, 3, "x", "r", "\t\tx");
    assertThat(tabs.getMessage()).isEqualTo("line 1:3: r\n  \t\tx\n  \t\t^");
    CqlSyntaxException atEnd = new CqlSyntaxException(1, 4, "", "unexpected end of input", "abc");
    assertThat(atEnd.getMessage()).endsWith("\n  abc\n     ^");
    CqlSyntaxException longToken = new CqlSyntaxException(1, 2, "'abc\ndef'", "r", "a'abc");
    assertThat(longToken.getMessage()).endsWith("\n  a'abc\n   ^^^^");
    assertThat(new CqlSyntaxException(1, 1, "", "r", "").getMessage()).isEqualTo("line 1:1: r");
  }
}
