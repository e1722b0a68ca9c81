package mqtt

import (
	"crypto/rand"
	"crypto/tls"
	"encoding/hex"
	"errors"
	"net"
	"strconv"
	"strings"
	"sync"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/jmx"
)

// The plugin's test classes.
const (
	ConnectClass    = "net.xmeter.samplers.ConnectSampler"
	PubClass        = "net.xmeter.samplers.PubSampler"
	SubClass        = "net.xmeter.samplers.SubSampler"
	DisconnectClass = "net.xmeter.samplers.DisConnectSampler"
)

// The plugin's message types and sample conditions.
const (
	typeString = "String"
	typeHex    = "Hex string"
	typeRandom = "Random string with fixed length"

	onTime  = "specified elapsed time (ms)"
	onCount = "number of received messages"

	// tsSep ends the send time a publisher puts before the payload.
	tsSep = "ts_sep_flag"
)

// maxClientID is the longest client id the plugin makes.
const maxClientID = 23

// client is a user's MQTT connection.
type client struct {
	c  paho.Client
	id string
	// subscribed holds the topics subscribed over this connection.
	subscribed map[string]bool
	// The messages of each Subscribe sampler, by sampler; they go to the
	// box of the one that sampled last, as the plugin's connection has one
	// listener, the last Subscribe sampler's.
	mu      sync.Mutex
	boxes   map[*subSampler]*box
	current *box
}

// box is what one Subscribe sampler has received over a connection: its
// batches, the oldest first, counted by its settings.
type box struct {
	batches []*batch
	// full is signalled when a batch reaches the count a sampler waits
	// for.
	full              chan struct{}
	byTime, debug, ts bool
	value             int
	// kept is the bytes of message contents the batches hold (for
	// debug_response); dropped counts the messages dropped unsampled since
	// the last sample, of batches dropped or contents not kept.
	kept, dropped int
}

// What a box keeps for a Subscribe sampler slower than its topics: at most
// maxBatches batches (the oldest is dropped for a new one) and maxKept
// bytes of message contents (the cap on kept HTTP bodies); a message over
// them is counted as dropped.
const (
	maxBatches = 1024
	maxKept    = 16 << 20
)

type batch struct {
	count, size int
	elapsed     float64 // the mean of the messages' transit times, with a timestamp
	timed       int
	contents    []string
}

// userConn is a user's one connection, shared by the plugin's samplers.
type userConn struct{ c *client }

var connKey = element.NewKey[*element.Local[userConn]]("mqtt connection")

func userConns(p *element.Plan) *element.Local[userConn] {
	return element.PerUser(p, connKey, func() *userConn { return &userConn{} }, (*userConn).drop)
}

func (u *userConn) drop() {
	if u.c != nil {
		u.c.c.Disconnect(0)
		u.c = nil
	}
}

// connectSampler is the Connect sampler.
type connectSampler struct {
	server, port, keepAlive, timeout, prefix, user, password, wsPath *element.Template
	protocol, version                                                string
	suffix, clean                                                    bool
	conns                                                            *element.Local[userConn]
}

// BuildConnect compiles a Connect sampler.
func BuildConnect(c element.Builder, e *jmx.Element, _ element.InScope) (element.Sampler, error) {
	s := &connectSampler{
		server:    element.PropOr(c, e, "mqtt.server", "127.0.0.1"),
		port:      element.PropOr(c, e, "mqtt.port", "1883"),
		keepAlive: element.PropOr(c, e, "mqtt.conn_keep_alive", "300"),
		timeout:   element.PropOr(c, e, "mqtt.conn_timeout", "10"),
		prefix:    element.PropOr(c, e, "mqtt.client_id_prefix", "conn_"),
		user:      c.Prop(e, "mqtt.user_name"),
		password:  c.Prop(e, "mqtt.password"),
		wsPath:    c.Prop(e, "mqtt.ws_path"),
		protocol:  strings.ToUpper(e.StrOr("mqtt.protocol", "TCP")),
		version:   e.StrOr("mqtt.version", "3.1"),
		suffix:    e.Bool("mqtt.client_id_suffix", true),
		clean:     e.StrOr("mqtt.conn_clean_session", "true") == "true",
		conns:     userConns(c.Plan()),
	}
	switch s.protocol {
	case "TCP", "SSL", "WS", "WSS":
	default:
		return nil, errors.New("protocol " + strconv.Quote(s.protocol) + " is none of the plugin's (TCP, SSL, WS, WSS)")
	}
	switch s.version {
	case "3.1", "3.1.1":
	case "5", "5.0":
		c.Refuse(e, "MQTT 5 is not supported: gojm's client speaks MQTT 3.1 and 3.1.1; set the version to 3.1.1")
	default:
		c.Warn(e, "MQTT version "+strconv.Quote(s.version)+" is read as 3.1, the plugin's default")
		s.version = "3.1"
	}
	if e.Bool("mqtt.dual_ssl_authentication", false) {
		c.Refuse(e, "two-way TLS with a Java key store is not supported: the client certificate needs a JVM's key store; "+
			"turn dual SSL authentication off")
	}
	return s, nil
}

// clientID is the plugin's Util.generateClientId: the prefix and random
// characters up to 23 in all.
func clientID(prefix string) string {
	n := maxClientID - len(prefix)
	if n <= 0 {
		return prefix
	}
	b := make([]byte, (n+1)/2)
	rand.Read(b)
	return prefix + hex.EncodeToString(b)[:n]
}

func (s *connectSampler) Sample(vu *element.VU, r *element.Result) {
	u := s.conns.Get(vu)
	u.drop() // the plugin disconnects the thread's connection first
	port, err1 := strconv.Atoi(strings.TrimSpace(s.port.Eval(vu)))
	keepAlive, err2 := strconv.Atoi(strings.TrimSpace(s.keepAlive.Eval(vu)))
	timeout, err3 := strconv.Atoi(strings.TrimSpace(s.timeout.Eval(vu)))
	r.Start = vu.Now()
	if err3 == nil && timeout < 0 {
		err3 = errors.New("negative connect timeout") // Paho's IllegalArgumentException
	}
	if err := errors.Join(err1, err2, err3); err != nil {
		r.Code, r.Message = "502", "Failed to establish Connection null. Please check SSL authentication info."
		r.Body = append(r.Body[:0], "Failed to establish Connection. Please check SSL authentication info."...)
		return
	}
	id := s.prefix.Eval(vu)
	if s.suffix {
		id = clientID(id)
	}
	scheme := strings.ToLower(s.protocol) // TCP, SSL, WS or WSS: Paho's schemes
	url := scheme + "://" + net.JoinHostPort(s.server.Eval(vu), strconv.Itoa(port))
	if p := strings.TrimSpace(s.wsPath.Eval(vu)); p != "" && (scheme == "ws" || scheme == "wss") {
		url += p
	}
	connTimeout := time.Duration(timeout) * time.Second
	if timeout == 0 {
		// None, as in the plugin; Paho's 0 would make the MQTT handshake's
		// deadline one already past. The wait below still ends with the run.
		connTimeout = noTimeout
	}
	o := paho.NewClientOptions().AddBroker(url).SetClientID(id).SetKeepAlive(time.Duration(keepAlive) * time.Second).
		SetConnectTimeout(connTimeout).SetCleanSession(s.clean).SetAutoReconnect(false).
		SetConnectRetry(false).SetTLSConfig(&tls.Config{InsecureSkipVerify: true})
	o.SetProtocolVersion(3)
	if s.version == "3.1.1" {
		o.SetProtocolVersion(4)
	}
	if user := s.user.Eval(vu); strings.TrimSpace(user) != "" {
		o.SetUsername(user)
	}
	if pw := s.password.Eval(vu); strings.TrimSpace(pw) != "" {
		o.SetPassword(pw)
	}
	cl := &client{id: id, subscribed: map[string]bool{}, boxes: map[*subSampler]*box{}}
	o.SetDefaultPublishHandler(func(paho.Client, paho.Message) {})
	cl.c = paho.NewClient(o)
	r.Start = vu.Now()
	tok := cl.c.Connect()
	ok := wait(vu, tok, connTimeout) == nil
	r.Elapsed = vu.Now().Sub(r.Start)
	if !ok {
		cl.c.Disconnect(0)
		r.Code, r.Message = "501", "Failed to establish Connection "+id+"."
		r.Body = append(r.Body[:0], "Client ["+id+"] failed. Couldn't establish connection."...)
		return
	}
	u.c = cl
	r.Code, r.Message, r.Success = "200", "Connection "+id+" established successfully.", true
	r.Body = append(r.Body[:0], "Successful."...)
}

// pubSampler is the Publish sampler.
type pubSampler struct {
	topic, message, qos *element.Template
	kind                string
	length              *element.Template
	timestamp, retained bool
	payloads            *element.Local[[]byte] // a user's random payload, made once as the plugin's
	conns               *element.Local[userConn]
}

// BuildPub compiles a Publish sampler.
func BuildPub(c element.Builder, e *jmx.Element, _ element.InScope) (element.Sampler, error) {
	s := &pubSampler{
		topic:     element.PropOr(c, e, "mqtt.topic_name", "test_topic"),
		message:   c.Prop(e, "mqtt.message_to_sent"),
		qos:       element.PropOr(c, e, "mqtt.qos_level", "0"),
		kind:      e.StrOr("mqtt.message_type", typeRandom),
		length:    element.PropOr(c, e, "mqtt.message_type_fixed_length", "1024"),
		timestamp: e.Bool("mqtt.add_timestamp", false),
		retained:  e.Bool("mqtt.retained_message", false),
		conns:     userConns(c.Plan()),
	}
	switch s.kind {
	case typeString, typeHex, typeRandom:
	default:
		c.Warn(e, "message type "+strconv.Quote(s.kind)+" is none of the plugin's: the payload is empty, as the plugin sends")
	}
	s.payloads = element.NewLocal(c.Plan(), func(*element.VU) *[]byte { return new([]byte) })
	return s, nil
}

// maxPayload caps a random payload's length, as HTTP bodies are kept
// bounded (httpx.DefaultMaxBody, 16 MiB): each user holds its own.
const maxPayload = 16 << 20

// randomPayload is the plugin's Util.generatePayload: n random letters and
// digits, n at most maxPayload.
func randomPayload(n int) []byte {
	const chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	b := make([]byte, n)
	rand.Read(b)
	for i, x := range b {
		// The modulo's slight bias does not matter to a load test's payload.
		b[i] = chars[int(x)%len(chars)]
	}
	return b
}

func (s *pubSampler) Sample(vu *element.VU, r *element.Result) {
	r.Start = vu.Now()
	u := s.conns.Get(vu)
	if u.c == nil {
		r.Code, r.Message = "500", "Publish: Connection not found."
		r.Body = append(r.Body[:0], "Publish failed because connection is not established."...)
		return
	}
	if !u.c.c.IsConnectionOpen() {
		r.Code, r.Message = "500", "Publish: Connection is broken."
		r.Body = append(r.Body[:0], "Publish failed because connection is broken and cannot be used."...)
		return
	}
	var payload []byte
	fail := func(msg string) {
		r.Elapsed = vu.Now().Sub(r.Start)
		r.Latency = r.Elapsed
		r.Code, r.Message = "502", "Publish failed for connection "+u.c.id+"."
		r.Body = append(r.Body[:0], "Client ["+u.c.id+"] publish failed: "+msg...)
	}
	switch s.kind {
	case typeString:
		payload = []byte(s.message.Eval(vu))
	case typeHex:
		text := s.message.Eval(vu)
		b, err := hex.DecodeString(text)
		if err != nil {
			// DatatypeConverter.parseHexBinary's messages
			if len(text)%2 == 1 {
				fail("hexBinary needs to be even-length: " + text)
			} else {
				fail("contains illegal character for hexBinary: " + text)
			}
			return
		}
		payload = b
	case typeRandom:
		p := s.payloads.Get(vu)
		if *p == nil {
			n, err := strconv.Atoi(strings.TrimSpace(s.length.Eval(vu)))
			if err != nil {
				fail("For input string: \"" + s.length.Eval(vu) + "\"")
				return
			}
			if n < 0 || n > maxPayload {
				fail("the fixed length " + strconv.Itoa(n) + " is not between 0 and " + strconv.Itoa(maxPayload))
				return
			}
			*p = randomPayload(n)
		}
		payload = *p
	}
	qos, err := strconv.Atoi(strings.TrimSpace(s.qos.Eval(vu)))
	if err != nil {
		fail("For input string: \"" + s.qos.Eval(vu) + "\"")
		return
	}
	if qos < 0 || qos > 2 {
		qos = 0 // the plugin keeps its default, at most once
	}
	if s.timestamp {
		payload = append([]byte(strconv.FormatInt(time.Now().UnixMilli(), 10)+tsSep), payload...)
	}
	topic := s.topic.Eval(vu)
	r.Start = vu.Now()
	tok := u.c.c.Publish(topic, byte(qos), s.retained, payload)
	err = wait(vu, tok, ackTimeout)
	r.Elapsed = vu.Now().Sub(r.Start)
	r.Latency = r.Elapsed
	r.SamplerData = string(payload)
	r.SentBytes = int64(len(payload))
	if err != nil {
		r.Code, r.Message = "501", "Publish failed for connection "+u.c.id+"."
		r.Body = append(r.Body[:0], "Client ["+u.c.id+"] publish failed: "+err.Error()...)
		return
	}
	r.Code, r.Message, r.Success = "200", "publish successfully for Connection "+u.c.id+".", true
	r.Body = append(r.Body[:0], "Publish successfuly."...)
}

// subSampler is the Subscribe sampler.
type subSampler struct {
	topics, qos, value *element.Template
	byTime, debug, ts  bool
	conns              *element.Local[userConn]
}

// BuildSub compiles a Subscribe sampler.
func BuildSub(c element.Builder, e *jmx.Element, _ element.InScope) (element.Sampler, error) {
	s := &subSampler{
		topics: element.PropOr(c, e, "mqtt.topic_name", "test_topic"),
		qos:    element.PropOr(c, e, "mqtt.qos_level", "0"),
		debug:  e.Bool("mqtt.debug_response", false),
		ts:     e.Bool("mqtt.add_timestamp", false),
		conns:  userConns(c.Plan()),
	}
	switch cond := e.StrOr("mqtt.sample_condition", onTime); cond {
	case onTime:
		s.byTime = true
		s.value = element.PropOr(c, e, "mqtt.sample_condition_value", "1000")
	case onCount:
		s.value = element.PropOr(c, e, "mqtt.sample_condition_value", "1")
	default:
		c.Warn(e, "sample condition "+strconv.Quote(cond)+" is none of the plugin's: sampled on the count of messages, as the plugin does")
		s.value = element.PropOr(c, e, "mqtt.sample_condition_value", "1")
	}
	return s, nil
}

func (s *subSampler) Sample(vu *element.VU, r *element.Result) {
	u := s.conns.Get(vu)
	if u.c == nil {
		r.Start = vu.Now()
		r.Code, r.Message = "500", "Subscribe: Connection not found."
		r.Body = append(r.Body[:0], "Subscribe failed because connection is not established."...)
		return
	}
	value, err := strconv.Atoi(strings.TrimSpace(s.value.Eval(vu)))
	if err != nil || value < 1 {
		value = 1
		if s.byTime {
			value = 1000
		}
	}
	cl := u.c
	cl.mu.Lock()
	bx := cl.boxes[s]
	if bx == nil {
		bx = &box{full: make(chan struct{}, 1), byTime: s.byTime, debug: s.debug, ts: s.ts, value: value}
		cl.boxes[s] = bx
	}
	cl.current = bx
	cl.mu.Unlock()
	if err := s.subscribe(vu, cl); err != nil {
		r.Start = vu.Now()
		r.Code, r.Message = "500", "Failed to subscribe to topic."
		r.Body = append(r.Body[:0], r.Message...)
		if s.byTime {
			vu.Sleep(time.Duration(value) * time.Millisecond)
		}
		return
	}
	if s.byTime {
		vu.Sleep(time.Duration(value) * time.Millisecond)
	} else {
		for {
			cl.mu.Lock()
			ready := len(bx.batches) > 0 && bx.batches[0].count >= value
			cl.mu.Unlock()
			if ready {
				break
			}
			// A run that stops ends the wait, where the plugin's thread
			// waits until JMeter gives up on it.
			select {
			case <-bx.full:
				continue
			case <-vu.Soft.Done():
			case <-vu.Hard.Done():
			}
			break
		}
	}
	r.Start = vu.Now()
	cl.mu.Lock()
	b := &batch{}
	if len(bx.batches) > 0 {
		b = bx.pop()
	}
	dropped := bx.dropped
	bx.dropped = 0
	cl.mu.Unlock()
	if dropped > 0 {
		vu.Log.Warn("MQTT Subscribe sampler "+vu.SamplerName+": "+strconv.Itoa(dropped)+
			" messages dropped unsampled: the sampler is slower than its topics", "thread", vu.Name)
	}
	r.Code, r.Success = "200", true
	r.Message = "Received " + strconv.Itoa(b.count) + " of message\n."
	r.Body = r.Body[:0]
	if s.debug {
		for _, m := range b.contents {
			r.Body = append(r.Body, m+" \n"...)
		}
	}
	r.Bytes = int64(b.size)
	if b.count > 0 && s.ts {
		r.Elapsed = time.Duration(b.elapsed * float64(time.Millisecond))
		r.Latency = r.Elapsed
	}
}

// subscribe subscribes the sampler's topics (separated by commas) over
// the connection, once.
func (s *subSampler) subscribe(vu *element.VU, cl *client) error {
	topics := s.topics.Eval(vu)
	cl.mu.Lock()
	done := cl.subscribed[topics]
	cl.mu.Unlock()
	if done {
		return nil
	}
	qos, err := strconv.Atoi(strings.TrimSpace(s.qos.Eval(vu)))
	if err != nil || qos < 0 || qos > 2 {
		qos = 0
	}
	filters := map[string]byte{}
	for _, t := range strings.Split(topics, ",") {
		filters[t] = byte(qos)
	}
	tok := cl.c.SubscribeMultiple(filters, func(_ paho.Client, m paho.Message) { cl.received(m.Payload()) })
	if err := wait(vu, tok, ackTimeout); err != nil {
		return err
	}
	// Only a granted subscription counts: a failed one is tried again on
	// the next sample.
	cl.mu.Lock()
	cl.subscribed[topics] = true
	cl.mu.Unlock()
	return nil
}

// pop takes the oldest batch out of the box.
func (bx *box) pop() *batch {
	b := bx.batches[0]
	bx.batches[0] = nil
	bx.batches = bx.batches[1:]
	for _, m := range b.contents {
		bx.kept -= len(m)
	}
	return b
}

// received counts a message in the current box's newest batch, or in a
// new one when that holds the count its sampler waits for.
func (cl *client) received(payload []byte) {
	msg := string(payload)
	now := time.Now().UnixMilli()
	cl.mu.Lock()
	defer cl.mu.Unlock()
	bx := cl.current
	if len(bx.batches) == 0 || (!bx.byTime && bx.batches[len(bx.batches)-1].count == bx.value) {
		if len(bx.batches) == maxBatches {
			bx.dropped += bx.batches[0].count
			bx.pop()
		}
		bx.batches = append(bx.batches, &batch{})
	}
	b := bx.batches[len(bx.batches)-1]
	if bx.ts {
		if i := strings.Index(msg, tsSep); i >= 0 {
			if sent, err := strconv.ParseInt(msg[:i], 10, 64); err == nil {
				b.elapsed = (b.elapsed*float64(b.timed) + float64(now-sent)) / float64(b.timed+1)
				b.timed++
			}
		}
	}
	if bx.debug {
		if bx.kept+len(msg) <= maxKept {
			b.contents = append(b.contents, msg)
			bx.kept += len(msg)
		} else {
			bx.dropped++
		}
	}
	b.size += len(msg)
	b.count++
	if !bx.byTime && b.count == bx.value {
		select {
		case bx.full <- struct{}{}:
		default:
		}
	}
}

// noTimeout is a connect timeout of 0: none.
const noTimeout = 24 * time.Hour

// ackTimeout bounds the wait for the broker's answer to a publish or a
// subscribe.
const ackTimeout = 30 * time.Second

var (
	errTimedOut = errors.New("timed out")
	errStopped  = errors.New("the run stopped")
)

// wait waits for tok to complete, at most d when d > 0 and no longer than
// the run's hard stop, and returns tok's error, errTimedOut or errStopped.
// It uses the user's timer, which serves all the user's waits.
func wait(vu *element.VU, tok paho.Token, d time.Duration) error {
	var expired <-chan time.Time
	if d > 0 {
		t := vu.Timer()
		t.Reset(d)
		defer t.Stop()
		expired = t.C
	}
	select {
	case <-tok.Done():
		return tok.Error()
	case <-expired:
		return errTimedOut
	case <-vu.Hard.Done():
		return errStopped
	}
}

// disconnectSampler is the Disconnect sampler.
type disconnectSampler struct{ conns *element.Local[userConn] }

// BuildDisconnect compiles a Disconnect sampler.
func BuildDisconnect(c element.Builder, _ *jmx.Element, _ element.InScope) (element.Sampler, error) {
	return &disconnectSampler{conns: userConns(c.Plan())}, nil
}

func (s *disconnectSampler) Sample(vu *element.VU, r *element.Result) {
	r.Start = vu.Now()
	u := s.conns.Get(vu)
	if u.c == nil {
		r.Code, r.Message = "500", "Connection not found."
		r.Body = append(r.Body[:0], "Failed. Connection not found."...)
		return
	}
	id := u.c.id
	u.c.c.Disconnect(0)
	u.c = nil
	r.Elapsed = vu.Now().Sub(r.Start)
	r.Code, r.Message, r.Success = "200", "Connection "+id+" disconnected.", true
	r.Body = append(r.Body[:0], "Successful."...)
}
