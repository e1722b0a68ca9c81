package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gojm/gojm/examples/target"
)

// run prints the URL, serves, and on cancellation writes the record file.
func TestRun(t *testing.T) {
	record := filepath.Join(t.TempDir(), "requests.jsonl")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	var stderr bytes.Buffer
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"-addr", "127.0.0.1:0", "-record", record}, pw, &stderr)
		pw.Close()
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatalf("reading the URL line: %v", err)
	}
	url := strings.TrimSpace(line)
	if !strings.HasPrefix(url, "http://127.0.0.1:") {
		t.Fatalf("first line %q is not the URL", line)
	}
	resp, err := http.Get(url + "/fast")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	http.DefaultClient.CloseIdleConnections()

	cancel()
	if err := <-done; err != nil {
		t.Fatalf("run: %v", err)
	}
	b, err := os.ReadFile(record)
	if err != nil {
		t.Fatal(err)
	}
	var r target.Request
	if err := json.Unmarshal(b, &r); err != nil || r.Target != "/fast" || bytes.Count(b, []byte("\n")) != 1 {
		t.Errorf("record file %q (err %v), want one line for /fast", b, err)
	}
	if !strings.Contains(stderr.String(), "1 requests received") {
		t.Errorf("stderr %q", stderr.String())
	}
}

func TestRunErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"non-loopback", []string{"-addr", "0.0.0.0:0"}, "non-loopback"},
		{"stray argument", []string{"-addr", "127.0.0.1:0", "extra"}, "unexpected arguments"},
		{"unknown flag", []string{"-nope"}, "flag provided but not defined"},
		{"unwritable record file", []string{"-addr", "127.0.0.1:0", "-record", "/nonexistent-dir/x.jsonl"}, "record file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			err := run(context.Background(), tt.args, &stdout, &stderr)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("run(%q) = %v, want an error with %q", tt.args, err, tt.want)
			}
			if stdout.Len() != 0 {
				t.Errorf("stdout %q, want nothing", stdout.String())
			}
		})
	}
}
