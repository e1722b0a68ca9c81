package target

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"
	"time"
)

func TestPages(t *testing.T) {
	s := start(t, Options{})
	tok := Token("alice")
	tests := []struct {
		name       string
		method     string
		path       string
		body       string
		header     map[string]string
		wantStatus int
		wantType   string
		check      func(t *testing.T, body string)
	}{
		{"fast", "GET", "/fast", "", nil, 200, "text/html; charset=utf-8", func(t *testing.T, b string) {
			if len(b) != 383 || b != FastPage {
				t.Errorf("len %d, want the 383-byte FastPage", len(b))
			}
		}},
		{"sleep", "GET", "/sleep?ms=1", "", nil, 200, "text/plain; charset=utf-8", wantBody("slept 1 ms\n")},
		{"sleep bad", "GET", "/sleep?ms=x", "", nil, 400, "", nil},
		{"big", "GET", "/big?kb=3", "", nil, 200, "text/plain; charset=utf-8", func(t *testing.T, b string) {
			if len(b) != 3072 || !strings.HasPrefix(b, "gojm target /big:") {
				t.Errorf("len %d prefix %q", len(b), b[:min(len(b), 20)])
			}
		}},
		{"big zero", "GET", "/big?kb=0", "", nil, 200, "", wantBody("")},
		{"status 418", "GET", "/status/418", "", nil, 418, "", wantBody("418 I'm a teapot\n")},
		{"status 204", "GET", "/status/204", "", nil, 204, "", wantBody("")},
		{"status out of range", "GET", "/status/99", "", nil, 400, "", nil},
		{"json", "GET", "/json", "", nil, 200, "application/json", func(t *testing.T, b string) {
			var doc struct {
				Token string
				Books []Book
			}
			if err := json.Unmarshal([]byte(b), &doc); err != nil || doc.Token != Token("demo") || len(doc.Books) != len(books) {
				t.Errorf("doc %+v, err %v", doc, err)
			}
		}},
		{"login", "POST", "/login", "user=alice&pass=secret", form, 200, "application/json",
			wantBody(`{"token":"` + tok + `","user":"alice"}` + "\n")},
		{"login bad password", "POST", "/login", "user=alice&pass=nope", form, 401, "application/json", nil},
		{"login GET", "GET", "/login", "", nil, 405, "", nil},
		{"books with no token", "GET", "/books", "", nil, 401, "application/json", nil},
		{"books with unknown token", "GET", "/books", "", map[string]string{"Authorization": "Bearer tok-nope"}, 401, "", nil},
		// The login case above issued alice's token.
		{"books with token", "GET", "/books", "", map[string]string{"Authorization": "Bearer " + tok}, 200, "application/json",
			func(t *testing.T, b string) {
				if !strings.Contains(b, `"user":"alice"`) || !strings.Contains(b, "Moby-Dick") {
					t.Errorf("body %q", b)
				}
			}},
		{"books with cookie", "GET", "/books", "", map[string]string{"Cookie": "session=" + tok}, 200, "", nil},
		{"book list", "GET", "/grails-slc/book/list", "", nil, 200, "text/html; charset=utf-8", func(t *testing.T, b string) {
			if !strings.Contains(b, "<td>Pride and Prejudice</td>") {
				t.Errorf("body %q", b)
			}
		}},
		{"book list cached", "GET", "/grails-slc/book/listCached", "", nil, 200, "text/html; charset=utf-8", wantBody(string(bookListPage))},
		{"book list revalidated by etag", "GET", "/grails-slc/book/listCached", "", map[string]string{"If-None-Match": `"book-list-1"`}, 304, "", wantBody("")},
		{"book list revalidated by date", "GET", "/grails-slc/book/listCached", "", map[string]string{"If-Modified-Since": "Tue, 20 Apr 2010 19:06:09 GMT"}, 304, "", wantBody("")},
		{"redirect 0", "GET", "/redirect/0", "", nil, 200, "", wantBody("redirects done\n")},
		{"redirect bad", "GET", "/redirect/x", "", nil, 400, "", nil},
	}
	client := newClient(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, err := http.NewRequest(tt.method, s.URL()+tt.path, strings.NewReader(tt.body))
			if err != nil {
				t.Fatal(err)
			}
			for k, v := range tt.header {
				req.Header.Set(k, v)
			}
			resp, err := client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			b, err := io.ReadAll(resp.Body)
			if err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode != tt.wantStatus {
				t.Errorf("status = %d, want %d (body %q)", resp.StatusCode, tt.wantStatus, b)
			}
			if tt.wantType != "" && resp.Header.Get("Content-Type") != tt.wantType {
				t.Errorf("Content-Type = %q, want %q", resp.Header.Get("Content-Type"), tt.wantType)
			}
			if tt.check != nil {
				tt.check(t, string(b))
			}
		})
	}
}

var form = map[string]string{"Content-Type": "application/x-www-form-urlencoded"}

func wantBody(want string) func(*testing.T, string) {
	return func(t *testing.T, got string) {
		t.Helper()
		if got != want {
			t.Errorf("body = %q, want %q", got, want)
		}
	}
}

// A client with a cookie jar logs in and reads the books with the cookie.
func TestLoginCookie(t *testing.T) {
	s := start(t, Options{})
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	client := newClient(t)
	client.Jar = jar
	resp, err := client.PostForm(s.URL()+"/login", url.Values{"user": {"bob"}, "pass": {Password}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	resp, err = client.Get(s.URL() + "/books")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("books with the session cookie: status %d", resp.StatusCode)
	}
}

func TestRedirects(t *testing.T) {
	s := start(t, Options{})
	client := newClient(t)
	resp, err := client.Get(s.URL() + "/redirect/3")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	var targets []string
	for _, r := range s.Requests() {
		targets = append(targets, r.Target)
	}
	if got, want := strings.Join(targets, " "), "/redirect/3 /redirect/2 /redirect/1 /redirect/0"; got != want || resp.StatusCode != 200 {
		t.Errorf("status %d after %s, want 200 after %s", resp.StatusCode, got, want)
	}

	_, err = client.Get(s.URL() + "/redirect-loop")
	if err == nil || !strings.Contains(err.Error(), "stopped after 10 redirects") {
		t.Errorf("redirect loop: err = %v, want the client's redirect limit", err)
	}
	var uerr *url.Error
	if !errors.As(err, &uerr) {
		t.Errorf("redirect loop: %T is not a *url.Error", err)
	}
	// Go's client sends the first request and follows 9 redirects.
	if got := s.Count(); got != 4+10 {
		t.Errorf("Count = %d, want 4 + 10", got)
	}
}

// The book list queries its books on every request; the cached list once
// for all the requests of a minute.
func TestBookListQueries(t *testing.T) {
	s := start(t, Options{BookQuery: time.Microsecond})
	get := func(path string) {
		t.Helper()
		resp, err := http.Get(s.URL() + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !bytes.Equal(body, bookListPage) {
			t.Fatalf("%s: %d, %d bytes", path, resp.StatusCode, len(body))
		}
	}
	for range 3 {
		get("/grails-slc/book/list")
	}
	if n := s.BookQueries(); n != 3 {
		t.Errorf("3 book lists ran %d queries", n)
	}
	for range 5 {
		get("/grails-slc/book/listCached")
	}
	if n := s.BookQueries(); n != 4 {
		t.Errorf("5 cached book lists ran %d queries, want 1", n-3)
	}
}
