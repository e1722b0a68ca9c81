package org.apache.jmeter.testelement.property;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/** Stand-in for JMeter's CollectionProperty: its size, items and iteration. */
public class CollectionProperty implements Iterable<JMeterProperty> {
    final List<JMeterProperty> items = new ArrayList<>();
    public CollectionProperty(List<?> objects) { for (Object o : objects) items.add(new JMeterProperty(o)); }
    public int size() { return items.size(); }
    public boolean isEmpty() { return items.isEmpty(); }
    public JMeterProperty get(int i) { return items.get(i); }
    public Iterator<JMeterProperty> iterator() { return items.iterator(); }
}
