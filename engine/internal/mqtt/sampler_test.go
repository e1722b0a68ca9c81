package mqtt

import (
	"context"
	"io"
	"log/slog"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	broker "github.com/mochi-mqtt/server/v2"
	"github.com/mochi-mqtt/server/v2/hooks/auth"
	"github.com/mochi-mqtt/server/v2/listeners"
	"github.com/mochi-mqtt/server/v2/packets"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/engine/internal/elementtest"
	"github.com/gojm/gojm/jmx"
)

// subscribed tells of each subscription the broker grants.
type subscribed struct {
	broker.HookBase
	ch chan struct{}
}

func (h *subscribed) ID() string { return "subscribed" }

func (h *subscribed) Provides(b byte) bool { return b == broker.OnSubscribed }

func (h *subscribed) OnSubscribed(*broker.Client, packets.Packet, []byte) { h.ch <- struct{}{} }

// gate holds the broker's handling of each subscribe and publish until
// open is closed (at the test's end at the latest).
type gate struct {
	broker.HookBase
	open chan struct{}
}

func (g *gate) ID() string { return "gate" }

func (g *gate) Provides(b byte) bool { return b == broker.OnSubscribe || b == broker.OnPublish }

func (g *gate) OnSubscribe(_ *broker.Client, pk packets.Packet) packets.Packet { <-g.open; return pk }

func (g *gate) OnPublish(_ *broker.Client, pk packets.Packet) (packets.Packet, error) {
	<-g.open
	return pk, nil
}

// serve starts an MQTT broker on the loopback and returns its port and
// a channel that tells of each subscription; a gate, if given, holds the
// broker's subscribes and publishes.
func serve(t *testing.T, gates ...*gate) (string, <-chan struct{}) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	b := broker.New(&broker.Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err := b.AddHook(new(auth.AllowHook), nil); err != nil {
		t.Fatal(err)
	}
	subs := &subscribed{ch: make(chan struct{}, 16)}
	if err := b.AddHook(subs, nil); err != nil {
		t.Fatal(err)
	}
	for _, g := range gates {
		if err := b.AddHook(g, nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.AddListener(listeners.NewNet("t", ln)); err != nil {
		t.Fatal(err)
	}
	if err := b.Serve(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	for _, g := range gates {
		t.Cleanup(func() {
			select {
			case <-g.open:
			default:
				close(g.open)
			}
		})
	}
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	return port, subs.ch
}

type step struct {
	build func(element.Builder, *jmx.Element, element.InScope) (element.Sampler, error)
	class string
	kv    []string
	user  int
	// what the sample must show; a message ending in "…" is a prefix
	code, message, body string
	success             bool
}

func TestMQTTSamplers(t *testing.T) {
	port, _ := serve(t)
	conn := func(user int, kv ...string) step {
		return step{BuildConnect, ConnectClass, append(kv, "mqtt.server", "127.0.0.1", "mqtt.port", port, "mqtt.version", "3.1.1"),
			user, "200", "Connection …", "Successful.", true}
	}
	for _, tt := range []struct {
		name  string
		steps []step
	}{
		{"publish, subscribe on time, disconnect", []step{
			conn(1, "mqtt.client_id_prefix", "dev_"),
			{BuildSub, SubClass, []string{"mqtt.topic_name", "t/a,t/b", "mqtt.sample_condition", onTime, "mqtt.sample_condition_value", "1"},
				1, "200", "Received 0 of message\n.", "", true},
			{BuildPub, PubClass, []string{"mqtt.topic_name", "t/a", "mqtt.message_type", typeString, "mqtt.message_to_sent", "one", "mqtt.qos_level", "1"},
				1, "200", "publish successfully for Connection dev_…", "Publish successfuly.", true},
			{BuildDisconnect, DisconnectClass, nil, 1, "200", "Connection dev_…", "Successful.", true},
			{BuildDisconnect, DisconnectClass, nil, 1, "500", "Connection not found.", "Failed. Connection not found.", false},
		}},
		{"no connection", []step{
			{BuildPub, PubClass, []string{"mqtt.message_type", typeString}, 1, "500", "Publish: Connection not found.",
				"Publish failed because connection is not established.", false},
			{BuildSub, SubClass, nil, 1, "500", "Subscribe: Connection not found.", "Subscribe failed because connection is not established.", false},
		}},
		{"a broker that is not there", []step{
			{BuildConnect, ConnectClass, []string{"mqtt.server", "127.0.0.1", "mqtt.port", "1", "mqtt.conn_timeout", "2", "mqtt.client_id_prefix", "x_"},
				1, "501", "Failed to establish Connection x_…", "Client [x_…", false},
		}},
		{"a connect timeout of 0 is none", []step{
			conn(1, "mqtt.conn_timeout", "0"),
		}},
		{"a negative connect timeout", []step{
			{BuildConnect, ConnectClass, []string{"mqtt.server", "127.0.0.1", "mqtt.port", port, "mqtt.conn_timeout", "-1"},
				1, "502", "Failed to establish Connection null. Please check SSL authentication info.", "Failed to establish Connection. Please check SSL authentication info.", false},
		}},
		{"a negative fixed length", []step{
			conn(1, "mqtt.client_id_prefix", "n", "mqtt.client_id_suffix", "false"),
			{BuildPub, PubClass, []string{"mqtt.message_type_fixed_length", "-1"}, 1, "502", "Publish failed for connection n.",
				"Client [n] publish failed: the fixed length -1 is not between 0 and 16777216", false},
		}},
		{"a fixed length over the cap", []step{
			conn(1, "mqtt.client_id_prefix", "n", "mqtt.client_id_suffix", "false"),
			{BuildPub, PubClass, []string{"mqtt.message_type_fixed_length", "16777217"}, 1, "502", "Publish failed for connection n.",
				"Client [n] publish failed: the fixed length 16777217 is not between 0 and 16777216", false},
			{BuildPub, PubClass, []string{"mqtt.message_type_fixed_length", "0"}, 1, "200", "publish successfully for Connection n.", "Publish successfuly.", true},
		}},
		{"a bad hex payload", []step{
			conn(1, "mqtt.client_id_prefix", "h_"),
			{BuildPub, PubClass, []string{"mqtt.message_type", typeHex, "mqtt.message_to_sent", "abc"}, 1, "502", "Publish failed for connection h_…",
				"Client [h_…", false},
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b := elementtest.New(nil, "", "")
			var ss []element.Sampler
			for _, st := range tt.steps {
				s, err := st.build(b, elementtest.El(st.class, st.kv...), element.InScope{})
				if err != nil || len(b.Errs) > 0 {
					t.Fatal(err, b.Errs)
				}
				ss = append(ss, s)
			}
			vus := map[int]*element.VU{}
			for i, st := range tt.steps {
				vu := vus[st.user]
				if vu == nil {
					vu = b.VU(st.user)
					vus[st.user] = vu
					defer vu.End()
				}
				var r element.Result
				ss[i].Sample(vu, &r)
				if r.Code != st.code || !like(r.Message, st.message) || !like(string(r.Body), st.body) || r.Success != st.success {
					t.Errorf("step %d: got %q %q %q %v, want %q %q %q %v", i, r.Code, r.Message, r.Body, r.Success,
						st.code, st.message, st.body, st.success)
				}
			}
		})
	}
}

// like matches s with want, or with its beginning when want ends in "…".
func like(s, want string) bool {
	if p, ok := strings.CutSuffix(want, "…"); ok {
		return strings.HasPrefix(s, p)
	}
	return s == want
}

// A Subscribe sampler on count subscribes and waits for its messages,
// which another user publishes once the broker has granted the
// subscription: a String and a Hex string payload, each at its QoS.
func TestMQTTSubscribeOnCount(t *testing.T) {
	port, subs := serve(t)
	b := elementtest.New(nil, "", "")
	el := func(class string, kv ...string) *jmx.Element {
		return elementtest.El(class, append(kv, "mqtt.server", "127.0.0.1", "mqtt.port", port, "mqtt.version", "3.1.1")...)
	}
	connect, _ := BuildConnect(b, el(ConnectClass), element.InScope{})
	sub, _ := BuildSub(b, el(SubClass, "mqtt.topic_name", "t/a,t/b", "mqtt.qos_level", "1", "mqtt.sample_condition", onCount,
		"mqtt.sample_condition_value", "2", "mqtt.debug_response", "true"), element.InScope{})
	pubText, _ := BuildPub(b, el(PubClass, "mqtt.topic_name", "t/a", "mqtt.message_type", typeString, "mqtt.message_to_sent",
		"one", "mqtt.qos_level", "1"), element.InScope{})
	pubHex, _ := BuildPub(b, el(PubClass, "mqtt.topic_name", "t/b", "mqtt.message_type", typeHex, "mqtt.message_to_sent",
		"74776f", "mqtt.qos_level", "2"), element.InScope{})
	subscriber, publisher := connected(t, b, connect)
	ctx := bounded(t, subscriber)
	published := make(chan string, 2)
	go func() {
		if !arrives(ctx, subs) {
			return
		}
		for _, p := range []element.Sampler{pubText, pubHex} {
			var r element.Result
			p.Sample(publisher, &r)
			published <- r.Code + " " + r.Message
		}
	}()
	var r element.Result
	sub.Sample(subscriber, &r)
	if ctx.Err() != nil {
		t.Fatalf("the messages did not arrive within %v: %q", waitLimit, r.Message)
	}
	if r.Code != "200" || r.Message != "Received 2 of message\n." || string(r.Body) != "one \ntwo \n" || r.Bytes != 6 {
		t.Errorf("%q %q %q %d", r.Code, r.Message, r.Body, r.Bytes)
	}
	for range 2 {
		if got := <-published; !strings.HasPrefix(got, "200 publish successfully for Connection conn_") {
			t.Errorf("publish: %s", got)
		}
	}
}

// waitLimit bounds a test's wait for the broker, so that a message that
// never comes fails the test instead of hanging it; it is no measure of
// speed.
const waitLimit = time.Minute

// bounded ends the user's waits (its soft stop) and the test's after
// waitLimit.
func bounded(t *testing.T, vu *element.VU) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	t.Cleanup(cancel)
	vu.Soft = ctx
	return ctx
}

// arrives waits for a signal on ch, reporting false if ctx ends first.
func arrives(ctx context.Context, ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	case <-ctx.Done():
		return false
	}
}

// A publisher's timestamp gives the subscriber its messages' transit time
// as the sample's latency; the random payload is of the length asked
// for, and the same for each of a user's samples.
func TestMQTTTimestampAndRandomPayload(t *testing.T) {
	port, subs := serve(t)
	b := elementtest.New(nil, "", "")
	el := func(class string, kv ...string) *jmx.Element {
		return elementtest.El(class, append(kv, "mqtt.server", "127.0.0.1", "mqtt.port", port)...)
	}
	connect, _ := BuildConnect(b, el(ConnectClass), element.InScope{})
	sub, _ := BuildSub(b, el(SubClass, "mqtt.topic_name", "ts", "mqtt.add_timestamp", "true", "mqtt.sample_condition", onCount,
		"mqtt.sample_condition_value", "2", "mqtt.debug_response", "true"), element.InScope{})
	pub, _ := BuildPub(b, el(PubClass, "mqtt.topic_name", "ts", "mqtt.add_timestamp", "true", "mqtt.message_type", typeRandom,
		"mqtt.message_type_fixed_length", "16", "mqtt.qos_level", "1"), element.InScope{})
	subscriber, publisher := connected(t, b, connect)
	ctx := bounded(t, subscriber)
	published := make(chan string, 2)
	go func() {
		if !arrives(ctx, subs) {
			published <- "no subscription"
			published <- "no subscription"
			return
		}
		for range 2 {
			var p element.Result
			pub.Sample(publisher, &p)
			if !p.Success || p.SentBytes != int64(len(p.SamplerData)) {
				published <- "failed: " + p.Code + " " + p.Message
				continue
			}
			published <- p.SamplerData
		}
	}()
	var s element.Result
	sub.Sample(subscriber, &s)
	if ctx.Err() != nil {
		t.Fatalf("the messages did not arrive within %v: %q", waitLimit, s.Message)
	}
	sent := []string{<-published, <-published}
	ts0, body0, _ := strings.Cut(sent[0], tsSep)
	_, body1, _ := strings.Cut(sent[1], tsSep)
	if _, err := strconv.ParseInt(ts0, 10, 64); err != nil || len(body0) != 16 || body0 != body1 {
		t.Errorf("payloads %q", sent)
	}
	if s.Message != "Received 2 of message\n." || string(s.Body) != sent[0]+" \n"+sent[1]+" \n" ||
		s.Bytes != int64(len(sent[0])+len(sent[1])) || s.Latency != s.Elapsed {
		t.Errorf("%q %q %d latency %v elapsed %v", s.Message, s.Body, s.Bytes, s.Latency, s.Elapsed)
	}
}

// connected builds two users, each connected by the Connect sampler, and
// fails the test on a failure to build or to connect.
func connected(t *testing.T, b *elementtest.Builder, connect element.Sampler) (subscriber, publisher *element.VU) {
	t.Helper()
	if len(b.Errs) > 0 {
		t.Fatal(b.Errs)
	}
	subscriber, publisher = b.VU(1), b.VU(2)
	t.Cleanup(subscriber.End)
	t.Cleanup(publisher.End)
	for _, vu := range []*element.VU{subscriber, publisher} {
		var r element.Result
		connect.Sample(vu, &r)
		if !r.Success {
			t.Fatal(r.Code, r.Message)
		}
	}
	return subscriber, publisher
}

// A wait for the broker's answer ends when the run stops hard; a
// subscribe that failed so is tried again on the next sample (the broker
// then gets two subscribes).
func TestMQTTWaitsEndWithTheRun(t *testing.T) {
	g := &gate{open: make(chan struct{})}
	port, subs := serve(t, g)
	b := elementtest.New(nil, "", "")
	el := func(class string, kv ...string) *jmx.Element {
		return elementtest.El(class, append(kv, "mqtt.server", "127.0.0.1", "mqtt.port", port, "mqtt.version", "3.1.1",
			"mqtt.client_id_prefix", "w", "mqtt.client_id_suffix", "false")...)
	}
	connect, _ := BuildConnect(b, el(ConnectClass), element.InScope{})
	pub, _ := BuildPub(b, el(PubClass, "mqtt.message_type", typeString, "mqtt.message_to_sent", "x", "mqtt.qos_level", "1"), element.InScope{})
	sub, _ := BuildSub(b, el(SubClass, "mqtt.sample_condition", onTime, "mqtt.sample_condition_value", "1"), element.InScope{})
	// The user connected last: the broker dropped the other, of the same client id.
	_, user := connected(t, b, connect)
	stopped, stop := context.WithCancel(context.Background())
	stop()
	running := user.Hard
	user.Hard = stopped
	for _, tt := range []struct {
		name                string
		s                   element.Sampler
		code, message, body string
	}{
		{"publish", pub, "501", "Publish failed for connection w.", "Client [w] publish failed: the run stopped"},
		{"subscribe", sub, "500", "Failed to subscribe to topic.", "Failed to subscribe to topic."},
	} {
		var r element.Result
		tt.s.Sample(user, &r)
		if r.Code != tt.code || r.Message != tt.message || string(r.Body) != tt.body {
			t.Errorf("%s: got %q %q %q, want %q %q %q", tt.name, r.Code, r.Message, r.Body, tt.code, tt.message, tt.body)
		}
	}
	close(g.open)
	user.Hard = running
	ctx := bounded(t, user)
	var r element.Result
	sub.Sample(user, &r)
	if r.Code != "200" {
		t.Errorf("subscribe again: %q %q", r.Code, r.Message)
	}
	for i := range 2 {
		if !arrives(ctx, subs) {
			t.Fatalf("the broker granted %d subscriptions within %v, want 2", i, waitLimit)
		}
	}
}

// What a Subscribe sampler slower than its topics keeps is bounded: the
// newest maxBatches batches and maxKept bytes of contents; the rest is
// counted as dropped.
func TestMQTTReceivedIsBounded(t *testing.T) {
	for _, tt := range []struct {
		name                   string
		bx                     box
		messages, size         int
		batches, kept, dropped int
		firstContents          int // the oldest batch's contents kept
	}{
		{"on count, within the caps", box{value: 2, debug: true}, 10, 3, 5, 30, 0, 2},
		{"on count, more batches than kept", box{value: 1}, maxBatches + 5, 1, maxBatches, 0, 5, 0},
		{"on time, contents over the cap", box{byTime: true, debug: true}, 5, maxKept / 4, 1, maxKept, 1, 4},
		{"on time, no contents kept without debug", box{byTime: true}, 5, maxKept / 2, 1, 0, 0, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			bx := tt.bx
			bx.full = make(chan struct{}, 1)
			cl := &client{current: &bx}
			msg := make([]byte, tt.size)
			for range tt.messages {
				cl.received(msg)
			}
			if len(bx.batches) != tt.batches || bx.kept != tt.kept || bx.dropped != tt.dropped ||
				len(bx.batches[0].contents) != tt.firstContents {
				t.Errorf("%d batches, %d bytes kept, %d dropped, %d contents in the first; want %d, %d, %d, %d",
					len(bx.batches), bx.kept, bx.dropped, len(bx.batches[0].contents), tt.batches, tt.kept, tt.dropped, tt.firstContents)
			}
			if got := bx.batches[0].count; tt.bx.byTime && got != tt.messages {
				t.Errorf("counted %d messages, want %d", got, tt.messages)
			}
		})
	}
}
