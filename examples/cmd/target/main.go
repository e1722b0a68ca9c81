package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/gojm/gojm/examples/target"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(2)
		}
		fmt.Fprintln(os.Stderr, "target:", err)
		os.Exit(1)
	}
}

// run serves until ctx is done, then writes the record file if asked.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("target", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:8080", "listen `address` (host:port; port 0 picks a free port)")
	record := fs.String("record", "", "on exit, write every request received to this `file` as JSON lines")
	allowRemote := fs.Bool("allow-remote", false, "allow listening on a non-loopback address")
	useTLS := fs.Bool("tls", false, "serve HTTPS with a fresh self-signed certificate")
	bookQuery := fs.Duration("book-query", target.DefaultBookQuery, "how long the book list's database `query` takes (/grails-slc/book/list runs it on every request, listCached once a minute); 0 for none")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}

	var out *os.File
	if *record != "" {
		f, err := os.Create(*record)
		if err != nil {
			return fmt.Errorf("record file: %w", err)
		}
		out = f
		defer f.Close()
	}
	if *bookQuery == 0 {
		*bookQuery = -1 // Options' zero is the default
	}
	s := target.NewServer(target.Options{CountOnly: out == nil, AllowRemote: *allowRemote, TLS: *useTLS, BookQuery: *bookQuery})
	if err := s.Start(*addr); err != nil {
		return err
	}
	fmt.Fprintln(stdout, s.URL())

	<-ctx.Done()
	err := s.Close()
	fmt.Fprintf(stderr, "target: %d requests received\n", s.Count())
	if out != nil {
		bw := bufio.NewWriter(out)
		werr := s.WriteJSONL(bw)
		if werr == nil {
			werr = bw.Flush()
		}
		if werr == nil {
			werr = out.Close()
		}
		if werr != nil {
			return errors.Join(err, fmt.Errorf("record file: %w", werr))
		}
	}
	return err
}
