package target

import (
	"io"
	"net/http"
	"testing"
)

// BenchmarkFast measures the target's own cost per request, so a load test
// against it knows how much headroom it has: a keep-alive Go client per
// goroutine fetching /fast.
func BenchmarkFast(b *testing.B) {
	for _, bc := range []struct {
		name string
		opts Options
	}{{"record", Options{}}, {"count-only", Options{CountOnly: true}}} {
		b.Run(bc.name, func(b *testing.B) {
			s := NewServer(bc.opts)
			if err := s.Start("127.0.0.1:0"); err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			url := s.URL() + "/fast"
			b.ReportAllocs()
			b.RunParallel(func(pb *testing.PB) {
				tr := &http.Transport{}
				defer tr.CloseIdleConnections()
				client := &http.Client{Transport: tr}
				for pb.Next() {
					resp, err := client.Get(url)
					if err != nil {
						b.Error(err)
						return
					}
					_, _ = io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
				}
			})
		})
	}
}
