// Package java holds each Java behaviour gojm imitates, once, so that every
// element printing or parsing a value does it as JMeter would: the text of
// Double.toString and Float.toString, java.util.Random's generator,
// DecimalFormat for whole numbers, the date-time patterns of
// SimpleDateFormat and DateTimeFormatter and Duration.parse, Java regular
// expressions translated for Go's RE2 engine, string unescaping,
// String.hashCode and HashMap's iteration order, Long.decode, Math.round,
// BufferedReader's lines and Java's charset names.
//
// It imports the standard library, golang.org/x/text's encodings and the
// project's bounded cache.
package java
