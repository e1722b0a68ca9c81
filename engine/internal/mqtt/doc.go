// Package mqtt is the MQTT samplers of xmeter's (emqx's) plugin
// (net.xmeter.samplers): Connect, Publish, Subscribe and Disconnect, over
// MQTT 3.1 or 3.1.1 on TCP, TLS, WebSocket or secure WebSocket, through
// the Eclipse Paho client.
//
// As the plugin keeps the connection the Connect sampler made in a
// variable of the JMeter thread, each user has one connection, which the
// Publish, Subscribe and Disconnect samplers use. A Subscribe sampler
// subscribes its topics on its first sample over a connection; the
// messages that then arrive are counted in batches: each sample takes the
// oldest batch once it holds the number of messages asked for, or, sampled
// on time, whatever came during the time asked for. What the batches keep
// is bounded, the oldest dropped and counted; every wait for the broker
// ends when the run stops hard. The codes and messages are the plugin's
// (200; 500 without a connection; 501 and 502 for failures of the
// client), the connection named by its client id.
//
// It imports element, jmx and the standard library with Paho.
package mqtt
