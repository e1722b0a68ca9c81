package target

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// FastPage is the body of /fast: a fixed HTML page of exactly 383 bytes.
const FastPage = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>gojm target: fast page</title>
</head>
<body>
<h1>Fast page</h1>
<p>A fixed page answered at once, for throughput tests. Its size never changes, so the bytes column of a JTL file is easy to check.</p>
<p>Slower pages are <a href="/sleep?ms=100">/sleep</a> and <a href="/big?kb=1024">/big</a>.</p>
</body>
</html>
`

// Password is the password /login accepts for any non-empty user name.
const Password = "secret"

// Book is one entry of the target's fixed catalogue.
type Book struct {
	ID     int     `json:"id"`
	Title  string  `json:"title"`
	Author string  `json:"author"`
	Price  float64 `json:"price"`
}

// books is the catalogue served by /json, /books and the book list pages.
var books = []Book{
	{1, "Pride and Prejudice", "Jane Austen", 9.99},
	{2, "Moby-Dick", "Herman Melville", 12.50},
	{3, "The Time Machine", "H. G. Wells", 7.25},
	{4, "Frankenstein", "Mary Shelley", 8.40},
}

// Books returns a copy of the catalogue served by /json, /books and the
// book list pages.
func Books() []Book { return slices.Clone(books) }

// Token is the bearer token /login issues to user: the same every time.
func Token(user string) string {
	sum := sha256.Sum256([]byte("gojm target:" + user))
	return "tok-" + hex.EncodeToString(sum[:10])
}

// intParam reads a non-negative integer query parameter, def when absent.
func intParam(r *http.Request, name string, def int) (int, error) {
	v := r.URL.Query().Get(name)
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("query parameter %s=%q: want a non-negative integer", name, v)
	}
	return n, nil
}

// allow answers 405 and returns false unless r's method is one of methods.
func allow(w http.ResponseWriter, r *http.Request, methods ...string) bool {
	for _, m := range methods {
		if r.Method == m {
			return true
		}
	}
	w.Header().Set("Allow", strings.Join(methods, ", "))
	http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
	return false
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	b = append(b, '\n')
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(code)
	_, _ = w.Write(b)
}

func (s *Server) fast(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Length", strconv.Itoa(len(FastPage)))
	_, _ = w.Write([]byte(FastPage))
}

// sleep answers after ms milliseconds. If the client goes away or the
// server closes first, the connection closes with no answer.
func (s *Server) sleep(w http.ResponseWriter, r *http.Request) {
	ms, err := intParam(r, "ms", 0)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	if !s.wait(r.Context(), time.Duration(ms)*time.Millisecond) {
		s.abort(w, r)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	fmt.Fprintf(w, "slept %d ms\n", ms)
}

// big streams kb KiB of text lines from one reused block.
func (s *Server) big(w http.ResponseWriter, r *http.Request) {
	kb, err := intParam(r, "kb", 1)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Content-Length", strconv.FormatInt(int64(kb)<<10, 10))
	if r.Method == http.MethodHead {
		return
	}
	for range kb {
		if _, err := w.Write(kilobyte); err != nil {
			return
		}
	}
}

// kilobyte is 1024 bytes: 16 lines of 64 characters.
var kilobyte = bytes.Repeat([]byte("gojm target /big: the quick brown fox jumps over the lazy dog!!\n"), 16)

func (s *Server) status(w http.ResponseWriter, r *http.Request) {
	code, err := strconv.Atoi(r.PathValue("code"))
	if err != nil || code < 200 || code > 599 {
		http.Error(w, "status code must be 200-599", http.StatusBadRequest)
		return
	}
	if !bodyAllowed(code) {
		w.WriteHeader(code)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(code)
	fmt.Fprintf(w, "%d %s\n", code, http.StatusText(code))
}

// jsonDoc is a fixed document for extractor examples.
func (s *Server) jsonDoc(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{
		"user":  "demo",
		"token": Token("demo"),
		"books": books,
	})
}

// login takes form fields user and pass; any non-empty user with Password
// gets {"user":…,"token":…} and a session cookie holding the same token.
func (s *Server) login(w http.ResponseWriter, r *http.Request) {
	if !allow(w, r, http.MethodPost) {
		return
	}
	user, pass := r.FormValue("user"), r.FormValue("pass")
	if user == "" || pass != Password {
		writeJSON(w, http.StatusUnauthorized, map[string]string{"error": "bad user or password"})
		return
	}
	tok := Token(user)
	s.tokens.Store(tok, user)
	http.SetCookie(w, &http.Cookie{Name: "session", Value: tok, Path: "/", HttpOnly: true})
	writeJSON(w, http.StatusOK, map[string]string{"user": user, "token": tok})
}

// books needs a token from /login, as a bearer token or the session cookie.
func (s *Server) books(w http.ResponseWriter, r *http.Request) {
	if !allow(w, r, http.MethodGet, http.MethodHead) {
		return
	}
	tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok {
		if c, err := r.Cookie("session"); err == nil {
			tok = c.Value
		}
	}
	user, ok := s.tokens.Load(strings.TrimSpace(tok))
	if !ok {
		w.Header().Set("WWW-Authenticate", `Bearer realm="gojm target"`)
		writeJSON(w, http.StatusUnauthorized, map[string]string{"error": "log in first"})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"user": user, "books": books})
}

// bookListPage is the HTML page of /grails-slc/book/list.
var bookListPage = func() []byte {
	var b bytes.Buffer
	b.WriteString("<!DOCTYPE html>\n<html>\n<head><title>Book List</title></head>\n<body>\n<h1>Book List</h1>\n")
	b.WriteString("<table>\n<tr><th>Id</th><th>Title</th><th>Author</th><th>Price</th></tr>\n")
	for _, bk := range books {
		fmt.Fprintf(&b, "<tr><td><a href=\"/grails-slc/book/show/%d\">%d</a></td><td>%s</td><td>%s</td><td>%.2f</td></tr>\n",
			bk.ID, bk.ID, html.EscapeString(bk.Title), html.EscapeString(bk.Author), bk.Price)
	}
	b.WriteString("</table>\n</body>\n</html>\n")
	return b.Bytes()
}()

// bookListModTime is the fixed Last-Modified of the cached book list.
var bookListModTime = time.Date(2010, 4, 20, 19, 6, 9, 0, time.UTC)

// The book list is the seed application's page, a Grails list of books
// with and without Hibernate's second-level cache: /list queries the
// database on every request, /listCached answers from the cache, which
// queries once a minute. The query is a wait of Options.BookQuery.

// bookCacheTTL is how long the cached book list is served without a query.
const bookCacheTTL = time.Minute

// bookCache is the second-level cache of the book list.
type bookCache struct {
	mu      sync.Mutex
	queried time.Time // zero until the first query
	queries atomic.Int64
}

// queryBooks runs the book list's query; false when the request ended
// (or the server closed) first.
func (s *Server) queryBooks(r *http.Request) bool {
	s.bookCache.queries.Add(1)
	return s.wait(r.Context(), s.opts.BookQuery)
}

// BookQueries is the number of book list queries run: one per request to
// /grails-slc/book/list, one per minute of /grails-slc/book/listCached.
func (s *Server) BookQueries() int64 { return s.bookCache.queries.Load() }

func (s *Server) bookList(w http.ResponseWriter, r *http.Request) {
	if !s.queryBooks(r) {
		s.abort(w, r)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Length", strconv.Itoa(len(bookListPage)))
	_, _ = w.Write(bookListPage)
}

// bookListCached serves the same page from the cache, with validators, so
// a cache manager revalidates it and gets 304 Not Modified. The request
// that finds the cache stale runs the query; others meanwhile wait for it,
// as a cache's readers wait for the one that fills it.
func (s *Server) bookListCached(w http.ResponseWriter, r *http.Request) {
	c := &s.bookCache
	c.mu.Lock()
	if c.queried.IsZero() || time.Since(c.queried) >= bookCacheTTL {
		if !s.queryBooks(r) {
			c.mu.Unlock()
			s.abort(w, r)
			return
		}
		c.queried = time.Now()
	}
	c.mu.Unlock()
	w.Header().Set("Cache-Control", "max-age=60")
	w.Header().Set("ETag", `"book-list-1"`)
	http.ServeContent(w, r, "list.html", bookListModTime, bytes.NewReader(bookListPage))
}

func (s *Server) redirect(w http.ResponseWriter, r *http.Request) {
	n, err := strconv.Atoi(r.PathValue("n"))
	if err != nil || n < 0 {
		http.Error(w, "redirect count must be a non-negative integer", http.StatusBadRequest)
		return
	}
	if n == 0 {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		fmt.Fprintln(w, "redirects done")
		return
	}
	http.Redirect(w, r, "/redirect/"+strconv.Itoa(n-1), http.StatusFound)
}

func (s *Server) redirectLoop(w http.ResponseWriter, r *http.Request) {
	http.Redirect(w, r, "/redirect-loop", http.StatusFound)
}
