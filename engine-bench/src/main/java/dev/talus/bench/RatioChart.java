package dev.talus.bench;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import javax.imageio.ImageIO;

/**
 * A horizontal bar chart of Talus/RocksDB throughput ratios on a log scale (1.0 = parity), drawn
 * with java.awt and written with ImageIO, so the runner needs no chart library. Stateless.
 */
final class RatioChart {
  private static final double MIN = 0.01;
  private static final double MAX = 100;

  private RatioChart() {}

  /** Writes {@code ratios} (workload → Talus/RocksDB median ops/s) as a PNG to {@code file}. */
  static void write(Map<String, Double> ratios, String title, Path file) throws IOException {
    int rowH = 34;
    int left = 190;
    int right = 70;
    int top = 60;
    int plotW = 560;
    int width = left + plotW + right;
    int height = top + rowH * ratios.size() + 50;
    BufferedImage img = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = img.createGraphics();
    try {
      g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
      g.setRenderingHint(
          RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
      g.setColor(Color.WHITE);
      g.fillRect(0, 0, width, height);
      g.setColor(Color.BLACK);
      g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 14));
      g.drawString(title, 10, 22);
      g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
      g.drawString(
          "Talus / RocksDB, median ops/s (log scale; right of 1.0 = Talus faster)", 10, 40);
      int bottom = top + rowH * ratios.size();
      for (double tick : new double[] {0.01, 0.1, 0.5, 1, 2, 10, 100}) {
        int x = left + x(tick, plotW);
        g.setColor(tick == 1 ? Color.DARK_GRAY : new Color(225, 225, 225));
        g.setStroke(new BasicStroke(tick == 1 ? 2f : 1f));
        g.drawLine(x, top - 5, x, bottom);
        g.setColor(Color.DARK_GRAY);
        g.drawString(format(tick), x - 10, bottom + 16);
      }
      int i = 0;
      int one = left + x(1, plotW);
      for (Map.Entry<String, Double> e : ratios.entrySet()) {
        int y = top + i * rowH;
        double r = e.getValue();
        g.setColor(Color.BLACK);
        g.drawString(e.getKey(), 10, y + rowH / 2 + 4);
        if (Double.isFinite(r) && r > 0) {
          int x = left + x(r, plotW);
          g.setColor(r >= 1 ? new Color(46, 139, 87) : new Color(200, 70, 60));
          g.fillRect(Math.min(one, x), y + 6, Math.max(2, Math.abs(x - one)), rowH - 12);
          g.setColor(Color.BLACK);
          g.drawString(format(r) + "x", Math.max(one, x) + 4, y + rowH / 2 + 4);
        }
        i++;
      }
    } finally {
      g.dispose();
    }
    ImageIO.write(img, "png", file.toFile());
  }

  private static int x(double ratio, int plotW) {
    double r = Math.max(MIN, Math.min(MAX, ratio));
    return (int) Math.round((Math.log10(r) - Math.log10(MIN)) / (Math.log10(MAX / MIN)) * plotW);
  }

  private static String format(double v) {
    if (v >= 10) {
      return String.format(Locale.ROOT, "%.0f", v);
    }
    return String.format(Locale.ROOT, v >= 0.1 ? "%.2f" : "%.3f", v);
  }
}
