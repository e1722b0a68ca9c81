// Package ws is the WebSocket samplers of Luminis' plugin
// (eu.luminis.jmeter.wssampler): Open, Request-Response, Single Write,
// Single Read, Ping-Pong and Close, and the Ping, Text and Binary frame
// filters a read sampler applies to the frames it waits for.
//
// As the plugin keeps one connection per JMeter thread for all its
// samplers, each user has one connection, shared by every WebSocket
// sampler of the plan: a sampler that creates a new connection drops the
// user's old one, the others use it or fail with the plugin's message. The
// plugin reads frame by frame; gorilla/websocket reads messages, so one
// goroutine per connection reads them and hands each message, ping, pong
// and close to the user as the frame the plugin would have read (a message
// sent in fragments arrives whole). The codes, messages, sampler data and
// sizes are the plugin's: 101 "Switching Protocols" with the upgrade's
// response headers on a new connection, 200 "OK" on an existing one;
// elapsed time from before the connect to the frame read, connect time the
// upgrade's.
//
// It imports element, jmx, internal/java, engine/httpx (the upgrade
// response's header as a sample's), cookies (the user's jar, whose
// cookies go on the upgrade) and the standard library with
// gorilla/websocket.
package ws
