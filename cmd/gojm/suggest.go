package main

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agnivade/levenshtein"
	"github.com/spf13/pflag"
)

// unknownCommand is the error for a command line whose first word is no
// command: a plan or a results file named without a command suggests the
// command that takes it, a misspelled command the nearest one.
func unknownCommand(args []string) error {
	word := args[0]
	rest := strings.Join(args[1:], " ")
	line := func(cmd string) string {
		return strings.TrimSpace("gojm " + cmd + " " + word + " " + rest)
	}
	var hint string
	switch strings.ToLower(filepath.Ext(word)) {
	case ".jmx":
		hint = fmt.Sprintf("; did you mean %s?", line("run"))
	case ".jtl", ".csv":
		hint = fmt.Sprintf("; did you mean %s?", line("report"))
	default:
		hint = suggestCommand(word, topCommands(), "gojm ")
	}
	return fmt.Errorf("unknown command %q%s\nRun 'gojm --help' for the commands", word, hint)
}

// topCommands are the words that can follow gojm.
func topCommands() []string {
	var names []string
	for _, c := range commands {
		name, _, _ := strings.Cut(c.name, " ")
		if !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	return append(names, "help")
}

// suggestCommand is "; did you mean PREFIX NAME?" for the name nearest
// word, or "" when none is near.
func suggestCommand(word string, names []string, prefix string) string {
	if n := nearest(word, names); n != "" {
		return fmt.Sprintf("; did you mean %s%s?", prefix, n)
	}
	return ""
}

// suggestFlag says which flag an unknown flag of the command was meant to
// be: the command's own flag nearest it, or the command that has it.
func suggestFlag(err error, fs *pflag.FlagSet, cmd string) string {
	var ne *pflag.NotExistError
	if !errors.As(err, &ne) {
		return ""
	}
	name := ne.GetSpecifiedName()
	if ne.GetSpecifiedShortnames() != "" { // -x: a shorthand
		if other, long := commandWithShorthand(name, cmd); other != "" {
			return fmt.Sprintf("; -%s (--%s) is a flag of gojm %s, not of gojm %s", name, long, other, cmd)
		}
		return ""
	}
	var names []string
	fs.VisitAll(func(f *pflag.Flag) {
		if !f.Hidden {
			names = append(names, f.Name)
		}
	})
	if n := nearest(name, names); n != "" {
		return fmt.Sprintf("; did you mean --%s?", n)
	}
	if other := commandWithFlag(name, cmd); other != "" {
		return fmt.Sprintf("; --%s is a flag of gojm %s, not of gojm %s", name, other, cmd)
	}
	return ""
}

// commandWithFlag is the first command other than cmd with the flag
// --name, or "".
func commandWithFlag(name, cmd string) string {
	for _, c := range commands {
		if c.name != cmd && c.flagSet().Lookup(name) != nil {
			return c.name
		}
	}
	return ""
}

// commandWithShorthand is the first command other than cmd with the
// flag -short, and the flag's long name.
func commandWithShorthand(short, cmd string) (string, string) {
	for _, c := range commands {
		if c.name == cmd {
			continue
		}
		if f := c.flagSet().ShorthandLookup(short); f != nil {
			return c.name, f.Name
		}
	}
	return "", ""
}

// nearest is the name nearest word by edit distance, if it is near
// enough to be a slip of the keyboard (two edits, or a third of the
// word's letters in a longer word) or word begins it; "" otherwise. Ties go to the name listed
// first.
func nearest(word string, names []string) string {
	word = strings.ToLower(word)
	best, bestD := "", max(2, len(word)/3)+1
	for _, n := range names {
		d := levenshtein.ComputeDistance(word, strings.ToLower(n))
		if d < bestD {
			best, bestD = n, d
		}
	}
	if best == "" && len(word) >= 3 {
		for _, n := range names {
			if strings.HasPrefix(n, word) {
				return n
			}
		}
	}
	return best
}
