package org.apache.jmeter.util;

import java.util.Properties;

/** Stand-in for JMeterUtils' property methods. */
public class JMeterUtils {
    public static Properties props = new Properties();
    public static Properties getJMeterProperties() { return props; }
    public static String getProperty(String k) { return props.getProperty(k); }
    public static Object setProperty(String k, String v) { return props.setProperty(k, v); }
    public static String getPropDefault(String k, String d) { return props.getProperty(k, d); }
    public static int getPropDefault(String k, int d) { String v = props.getProperty(k); try { return v == null ? d : Integer.parseInt(v.trim()); } catch (NumberFormatException e) { return d; } }
    public static long getPropDefault(String k, long d) { String v = props.getProperty(k); try { return v == null ? d : Long.parseLong(v.trim()); } catch (NumberFormatException e) { return d; } }
    public static boolean getPropDefault(String k, boolean d) { String v = props.getProperty(k); return v == null ? d : v.trim().equalsIgnoreCase("true"); }
}
