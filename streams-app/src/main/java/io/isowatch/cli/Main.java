package io.isowatch.cli;

public final class Main {
  public static void main(final String[] args) {
    System.out.println("isowatch");
  }
}
