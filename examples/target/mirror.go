package target

import (
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// mirror answers with the request it received: the request line and header
// lines exactly as sent, the blank line, then the body (de-chunked), as
// text/plain with status 200.
//
// Like JMeter's HTTP Mirror Server it obeys some request headers and query
// parameters:
//
//	X-ResponseStatus: 302 [reason]   the status code (the reason is Go's)
//	X-SetHeaders: A: 1|B: 2          extra response headers, names kept
//	X-SetCookie: a=b                 a Set-Cookie header
//	X-Sleep: ms                      wait before answering
//	X-ResponseLength: n              cut the body to n bytes
//	?status=404                      the status code (overrides the header)
//	?redirect=/where                 302 with that Location
//
// Unlike JMeter 2.13's mirror, which answers HTTP/1.0 without a
// Content-Length and closes every connection, it keeps connections alive.
func (s *Server) mirror(w http.ResponseWriter, r *http.Request) {
	ex := exchangeOf(r)
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return // the client went away mid-body; nobody to answer
	}
	out := append(append([]byte(nil), ex.head...), body...)

	code := http.StatusOK
	if v := r.Header.Get("X-ResponseStatus"); v != "" {
		code = leadingInt(v, code)
	}
	q := r.URL.Query()
	if v := q.Get("status"); v != "" {
		code = leadingInt(v, code)
	}
	h := w.Header()
	h.Set("Content-Type", "text/plain")
	if loc := q.Get("redirect"); loc != "" {
		code = http.StatusFound
		h.Set("Location", loc)
	}
	for _, kv := range strings.Split(r.Header.Get("X-SetHeaders"), "|") {
		if name, value, ok := strings.Cut(kv, ":"); ok && strings.TrimSpace(name) != "" {
			name = strings.TrimSpace(name)
			h[name] = append(h[name], strings.TrimSpace(value))
		}
	}
	if v := r.Header.Get("X-SetCookie"); v != "" {
		h.Add("Set-Cookie", v)
	}
	if v := r.Header.Get("X-ResponseLength"); v != "" {
		if n, err := strconv.Atoi(strings.TrimSpace(v)); err == nil && n >= 0 && n < len(out) {
			out = out[:n]
		}
	}
	if v := r.Header.Get("X-Sleep"); v != "" {
		if ms, err := strconv.Atoi(strings.TrimSpace(v)); err == nil {
			if !s.wait(r.Context(), time.Duration(ms)*time.Millisecond) {
				s.abort(w, r)
				return
			}
		}
	}
	if code < 200 || code > 599 {
		code = http.StatusOK
	}
	if !bodyAllowed(code) {
		w.WriteHeader(code)
		return
	}
	h.Set("Content-Length", strconv.Itoa(len(out)))
	w.WriteHeader(code)
	if r.Method != http.MethodHead {
		_, _ = w.Write(out)
	}
}

// leadingInt parses the decimal number at the start of s ("302 Moved" → 302),
// or returns def.
func leadingInt(s string, def int) int {
	s = strings.TrimSpace(s)
	end := 0
	for end < len(s) && s[end] >= '0' && s[end] <= '9' {
		end++
	}
	n, err := strconv.Atoi(s[:end])
	if err != nil {
		return def
	}
	return n
}

// bodyAllowed reports whether a response with this status may have a body.
func bodyAllowed(code int) bool {
	return code >= 200 && code != http.StatusNoContent && code != http.StatusNotModified
}
