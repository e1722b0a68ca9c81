package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/pflag"
)

// completionCmd is gojm completion bash|zsh|fish: a script that completes
// gojm's commands, each command's own flags and the files its arguments
// and flags take, generated from the command table (help.go) and the
// flags the commands register, so that it names what gojm takes.
func completionCmd(args []string, stdout io.Writer) error {
	fs := newFlagSet("completion")
	if done, err := parseFlags(fs, "completion", args, stdout); done || err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usageErr("completion", fmt.Errorf("name the shell: bash, zsh or fish"))
	}
	switch fs.Arg(0) {
	case "bash":
		writeBash(stdout)
	case "zsh":
		writeZsh(stdout)
	case "fish":
		writeFish(stdout)
	default:
		return usageErr("completion", fmt.Errorf("no completion for the shell %q%s", fs.Arg(0), suggestCommand(fs.Arg(0), shells, "gojm completion ")))
	}
	return nil
}

var shells = []string{"bash", "zsh", "fish"}

// fileValuedFlags are the flags whose value is a file or a folder; the others
// take text the shell cannot guess.
var fileValuedFlags = []string{"testfile", "logfile", "output", "propfile", "addprop", "jmeterlogfile", "jmeterlogconf", "thresholds", "junit", "sync-dir", "file"}

// completedFlag is a flag as a completion script needs it.
type completedFlag struct {
	long, short string
	usage       string // its first clause, for the shells that show it
	value       bool   // it takes a value
	file        bool   // the value is a file or folder
	repeat      bool   // it may be given more than once
}

// completedFlags lists the command's visible flags with --help.
func (c *command) completedFlags() []completedFlag {
	var out []completedFlag
	c.flagSet().VisitAll(func(f *pflag.Flag) {
		if f.Hidden {
			return
		}
		out = append(out, completedFlag{
			long: f.Name, short: f.Shorthand, usage: shortUsage(f.Usage),
			value:  f.NoOptDefVal == "",
			file:   slices.Contains(fileValuedFlags, f.Name),
			repeat: strings.HasSuffix(f.Value.Type(), "Array") || strings.HasSuffix(f.Value.Type(), "Slice"),
		})
	})
	return append(out, completedFlag{long: "help", short: "h", usage: "show the command's help"})
}

// shortUsage is a flag's usage up to its first clause.
func shortUsage(s string) string {
	if i := strings.IndexAny(s, ";:("); i > 0 {
		s = s[:i]
	}
	return strings.TrimSpace(s)
}

// words are the words the command is typed with ("k8s manifest": two).
func (c *command) words() []string { return strings.Fields(c.name) }

// argGlob is the pattern of the files a command's arguments name.
func argGlob(args string) string {
	switch args {
	case "plan":
		return "*.jmx"
	case "results":
		return "*.@(jtl|csv|xml)"
	}
	return ""
}

func writeBash(w io.Writer) {
	fmt.Fprint(w, `# bash completion for gojm: source <(gojm completion bash)
_gojm() {
    local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}"
    local cmd="${COMP_WORDS[1]}" flags="" valued="" args="" first=2
    if [[ $COMP_CWORD -eq 1 ]]; then
        COMPREPLY=($(compgen -W "`+strings.Join(topCommands(), " ")+` --help --version" -- "$cur"))
        return
    fi
    if [[ $cmd == k8s ]]; then
        if [[ $COMP_CWORD -eq 2 ]]; then
            COMPREPLY=($(compgen -W "manifest" -- "$cur"))
            return
        fi
        cmd="k8s manifest" first=3
    fi
    [[ $cmd == -* ]] && cmd=run first=1 # JMeter's command line
    case "$cmd" in
`)
	for _, c := range commands {
		var flags, valued []string
		for _, f := range c.completedFlags() {
			flags = append(flags, "--"+f.long)
			if f.short != "" {
				flags = append(flags, "-"+f.short)
			}
			if f.value {
				valued = append(valued, "--"+f.long)
				if f.short != "" {
					valued = append(valued, "-"+f.short)
				}
			}
		}
		fmt.Fprintf(w, "    %q) flags=%q valued=%q args=%q ;;\n", c.name, strings.Join(flags, " "), " "+strings.Join(valued, " ")+" ", c.args)
	}
	fmt.Fprintf(w, `    help) COMPREPLY=($(compgen -W "%s" -- "$cur")); return ;;
    *) return ;;
    esac
    if [[ $valued == *" $prev "* ]]; then
        case "$prev" in
`, strings.Join(topCommands(), " "))
	var files []string
	for _, n := range fileValuedFlags {
		files = append(files, "--"+n)
	}
	for _, c := range commands {
		for _, f := range c.completedFlags() {
			if f.file && f.short != "" && !slices.Contains(files, "-"+f.short) {
				files = append(files, "-"+f.short)
			}
		}
	}
	fmt.Fprintf(w, `        %s) COMPREPLY=($(compgen -f -- "$cur")) ;;
        *) COMPREPLY=() ;;
        esac
        return
    fi
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$flags" -- "$cur"))
        return
    fi
    case "$args" in
    plan) COMPREPLY=($(compgen -f -X '!%s' -- "$cur") $(compgen -d -- "$cur")) ;;
    results) COMPREPLY=($(shopt -s extglob; compgen -f -X '!%s' -- "$cur") $(compgen -d -- "$cur")) ;;
    folder) COMPREPLY=($(compgen -d -- "$cur")) ;;
    shell) COMPREPLY=($(compgen -W "%s" -- "$cur")) ;;
    esac
}
complete -o filenames -F _gojm gojm
`, strings.Join(files, "|"), argGlob("plan"), argGlob("results"), strings.Join(shells, " "))
}

// zshQuote escapes text for a zsh _arguments description.
func zshQuote(s string) string {
	return strings.NewReplacer("'", `'\''`, "[", `\[`, "]", `\]`, ":", `\:`).Replace(s)
}

func writeZsh(w io.Writer) {
	fmt.Fprint(w, `#compdef gojm
# zsh completion for gojm: gojm completion zsh > "${fpath[1]}/_gojm"

_gojm() {
  local -a cmds
  cmds=(
`)
	for _, c := range commands {
		// _describe splits at the first colon only: the summary is as it is.
		fmt.Fprintf(w, "    '%s:%s'\n", c.words()[0], strings.ReplaceAll(c.summary, "'", `'\''`))
	}
	fmt.Fprint(w, `    'help:show a command'"'"'s help'
  )
  if (( CURRENT == 2 )); then
    _describe -t commands 'gojm command' cmds
    return
  fi
  local cmd=$words[2]
  if [[ $cmd == k8s ]]; then
    if (( CURRENT == 3 )); then
      _values 'k8s command' 'manifest[a Kubernetes Job that runs the plan split over N pods]'
      return
    fi
    cmd="k8s manifest"
    shift words; (( CURRENT-- ))
  fi
  [[ $cmd == -* ]] && cmd=run || { shift words; (( CURRENT-- )) }
  case $cmd in
`)
	for _, c := range commands {
		fmt.Fprintf(w, "  %q)\n    _arguments -s \\\n", c.name)
		for _, f := range c.completedFlags() {
			fmt.Fprintf(w, "      %s \\\n", zshSpec(f))
		}
		switch c.args {
		case "plan":
			fmt.Fprint(w, "      '*:plan:_files -g \"*.jmx\"'\n")
		case "results":
			fmt.Fprint(w, "      '*:results:_files -g \"*.(jtl|csv|xml)\"'\n")
		case "folder":
			fmt.Fprint(w, "      '*:folder:_files -/'\n")
		case "shell":
			fmt.Fprintf(w, "      ':shell:(%s)'\n", strings.Join(shells, " "))
		default:
			fmt.Fprint(w, "      \n")
		}
		fmt.Fprint(w, "    ;;\n")
	}
	fmt.Fprintf(w, `  help)
    _values 'command' %s
    ;;
  esac
}

if [[ $funcstack[1] == _gojm ]]; then
  _gojm "$@"
else
  compdef _gojm gojm
fi
`, strings.Join(topCommands(), " "))
}

// zshSpec is the flag as _arguments takes it: '(-t --testfile)'{-t+,--testfile=}'[the plan]:file:_files'.
func zshSpec(f completedFlag) string {
	long, short := "--"+f.long, "-"+f.short
	value := ""
	if f.value {
		long += "=" // --flag=value or --flag value
		short += "+"
		value = ":value: "
		if f.file {
			value = ":file:_files"
		}
	}
	rep, excl := "", "(-"+f.short+" --"+f.long+")"
	if f.repeat {
		rep, excl = "*", ""
	}
	desc := "[" + zshQuote(f.usage) + "]" + value
	if f.short == "" {
		return "'" + rep + long + desc + "'"
	}
	return "'" + rep + excl + "'{" + short + "," + long + "}'" + desc + "'"
}

// fishQuote quotes text for fish.
func fishQuote(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, "'", `\'`).Replace(s) + "'"
}

func writeFish(w io.Writer) {
	fmt.Fprint(w, "# fish completion for gojm: gojm completion fish > ~/.config/fish/completions/gojm.fish\ncomplete -c gojm -f\n")
	top := topCommands()
	fmt.Fprintf(w, "complete -c gojm -n 'not __fish_seen_subcommand_from %s' -l help -s h -d 'show the commands'\n", strings.Join(top, " "))
	for _, c := range commands {
		fmt.Fprintf(w, "complete -c gojm -n 'not __fish_seen_subcommand_from %s' -a %s -d %s\n", strings.Join(top, " "), c.words()[0], fishQuote(c.summary))
	}
	fmt.Fprintf(w, "complete -c gojm -n 'not __fish_seen_subcommand_from %s' -a help -d 'show a command'\\''s help'\n", strings.Join(top, " "))
	fmt.Fprintf(w, "complete -c gojm -n '__fish_seen_subcommand_from help' -a %s\n", fishQuote(strings.Join(top, " ")))
	fmt.Fprint(w, "complete -c gojm -n '__fish_seen_subcommand_from k8s; and not __fish_seen_subcommand_from manifest' -a manifest -d 'a Kubernetes Job that runs the plan split over N pods'\n")
	for _, c := range commands {
		cond := "__fish_seen_subcommand_from " + c.words()[0]
		if len(c.words()) > 1 {
			cond += "; and __fish_seen_subcommand_from " + c.words()[1]
		}
		for _, f := range c.completedFlags() {
			line := fmt.Sprintf("complete -c gojm -n %s -l %s", fishQuote(cond), f.long)
			if f.short != "" {
				line += " -s " + f.short
			}
			if f.value {
				line += " -r"
				if f.file {
					line += " -F"
				}
			}
			fmt.Fprintf(w, "%s -d %s\n", line, fishQuote(f.usage))
		}
		switch c.args {
		case "plan":
			fmt.Fprintf(w, "complete -c gojm -n %s -k -a '(__fish_complete_suffix .jmx)'\n", fishQuote(cond))
		case "results":
			fmt.Fprintf(w, "complete -c gojm -n %s -k -a '(__fish_complete_suffix .jtl .csv .xml)'\n", fishQuote(cond))
		case "folder":
			fmt.Fprintf(w, "complete -c gojm -n %s -a '(__fish_complete_directories)'\n", fishQuote(cond))
		case "shell":
			fmt.Fprintf(w, "complete -c gojm -n %s -a %s\n", fishQuote(cond), fishQuote(strings.Join(shells, " ")))
		}
	}
}
