package main

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/spf13/pflag"
	"go.yaml.in/yaml/v3"

	"github.com/gojm/gojm/engine"
	"github.com/gojm/gojm/internal/files"
	"github.com/gojm/gojm/jmx"
)

// A split run on Kubernetes is one Indexed Job: pod i runs segment i of n
// (its JOB_COMPLETION_INDEX), the pods meet through files in a shared
// ReadWriteMany volume, and pod 0 merges their results. Nothing of gojm's
// own runs between the pods: no operator, no custom resource, no network
// between them. gojm k8s manifest prints what kubectl apply needs: the
// plan and its data files as a ConfigMap, a claim on the results volume
// and the Job.

// configMapLimit is what Kubernetes stores in one ConfigMap (etcd's
// object size), less room for the object's own fields.
const configMapLimit = 1<<20 - 16<<10

// k8sOptions are gojm k8s manifest's settings.
type k8sOptions struct {
	plan         string
	segments     int
	image        string
	name         string
	runID        string
	namespace    string
	storageClass string
	storage      string
	cpu, memory  string
	files        []string // data files besides those the plan names, relative to its folder
	props        map[string]string
	runArgs      []string // gojm run's flags for every segment (-J, --threshold…)
	stderr       io.Writer
}

func k8sCmd(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] != "manifest" {
		if len(args) > 0 && (args[0] == "-h" || args[0] == "--help" || args[0] == "help") {
			fmt.Fprint(stdout, k8sUsage)
			return nil
		}
		fmt.Fprint(stderr, k8sUsage)
		if len(args) > 0 {
			return &exitErr{exitUsage, fmt.Errorf("gojm k8s has one command: manifest%s", suggestCommand(args[0], []string{"manifest"}, "gojm k8s "))}
		}
		return &exitErr{exitUsage, errors.New("gojm k8s has one command: manifest")}
	}
	fs := newFlagSet("k8s manifest")
	var kf k8sFlags
	kf.register(fs)
	if done, err := parseFlags(fs, "k8s manifest", args[1:], stdout); done || err != nil {
		return err
	}
	o := kf.k8sOptions
	if fs.NArg() != 1 {
		return usageErr("k8s manifest", errors.New("gojm k8s manifest takes one plan"))
	}
	o.plan = fs.Arg(0)
	if o.runID == "" {
		o.runID = newRunID(time.Now())
	}
	if o.image == "" {
		return &exitErr{exitUsage, errors.New("--image: name the image built from gojm's Containerfile, as your cluster pulls it")}
	}
	if o.segments < 1 {
		return &exitErr{exitUsage, fmt.Errorf("--segments %d: a run has at least one segment", o.segments)}
	}
	o.props, o.stderr = map[string]string{}, stderr
	for _, p := range kf.props {
		o.runArgs = append(o.runArgs, "-J"+p)
		name, value, _ := strings.Cut(p, "=")
		o.props[name] = value
	}
	for _, t := range kf.thresholds {
		o.runArgs = append(o.runArgs, "--threshold="+t)
	}
	out, err := k8sManifest(o)
	if err != nil {
		return err
	}
	_, err = stdout.Write(out)
	return err
}

// k8sFlags are gojm k8s manifest's flags.
type k8sFlags struct {
	k8sOptions
	props, thresholds []string
}

func (f *k8sFlags) register(fs *pflag.FlagSet) {
	o := &f.k8sOptions
	fs.IntVar(&o.segments, "segments", 2, "how many pods split the run (the Job's completions and parallelism)")
	fs.StringVar(&o.image, "image", "", "the container image with gojm, built from the Containerfile (required)")
	fs.StringVar(&o.name, "name", "", "the Job's name (default: gojm- and the plan's file name)")
	fs.StringVar(&o.runID, "run-id", "", "the run's id: its folder in the results volume (default: the time now and a random suffix)")
	fs.StringVar(&o.namespace, "namespace", "", "the namespace of the objects (default: kubectl's)")
	fs.StringVar(&o.storageClass, "storage-class", "", "the storage class of the results volume, one that offers ReadWriteMany (default: the cluster's)")
	fs.StringVar(&o.storage, "storage", "1Gi", "the size of the results volume")
	fs.StringVar(&o.cpu, "cpu", "1", "the CPU each pod requests (no limit is set: a throttled load generator measures itself)")
	fs.StringVar(&o.memory, "memory", "512Mi", "the memory each pod requests, and its limit")
	fs.StringArrayVar(&o.files, "file", nil, "another data file to ship with the plan, relative to its folder (those its fields name are found and shipped); repeatable")
	fs.StringArrayVarP(&f.props, "jmeterproperty", "J", nil, "name=value: a property for every segment (repeatable)")
	fs.StringArrayVar(&f.thresholds, "threshold", nil, "a threshold evaluated on the merged results (repeatable; see gojm run --help)")
}

const k8sUsage = `Usage: gojm k8s manifest PLAN.jmx [--segments N] [--image IMAGE] [flags]

Prints a ConfigMap with the plan and its data files, a ReadWriteMany
volume claim for the results and an Indexed Job whose pod i runs segment
i of N. Run it with:

  gojm k8s manifest plan.jmx --segments 4 --image IMAGE > run.yaml
  kubectl apply -f run.yaml
  kubectl wait --for=condition=complete --timeout=2h job/NAME
  kubectl logs -l job-name=NAME,batch.kubernetes.io/job-completion-index=0
                                   (pod 0: the merged results)

`

// newRunID names a run by its start, with a random suffix so that two
// manifests made in one second differ.
func newRunID(now time.Time) string {
	b := make([]byte, 3)
	_, _ = rand.Read(b)
	return now.UTC().Format("20060102-150405") + "-" + hex.EncodeToString(b)
}

// k8sFile is one file shipped in the ConfigMap.
type k8sFile struct {
	key  string // its ConfigMap key
	path string // its path below the plan's folder
	data []byte
}

// k8sManifest renders the ConfigMap, the volume claim and the Job.
func k8sManifest(o k8sOptions) ([]byte, error) {
	files, err := k8sFiles(o)
	if err != nil {
		return nil, err
	}
	name := o.name
	if name == "" {
		name = "gojm-" + strings.TrimSuffix(filepath.Base(o.plan), filepath.Ext(o.plan))
	}
	name = dnsLabel(name)
	if name == "" {
		return nil, fmt.Errorf("--name %q: a Kubernetes name has letters or digits", o.name)
	}
	meta := func(suffix string) yaml.Node {
		m := mapping("name", name+suffix)
		if o.namespace != "" {
			add(&m, "namespace", o.namespace)
		}
		add(&m, "labels", mapping("app.kubernetes.io/name", "gojm", "gojm.run", dnsLabel(o.runID)))
		return m
	}

	data, binary := mapping(), mapping()
	var items []any
	size := 0
	for _, f := range files {
		size += len(f.data) + len(f.key)
		if utf8.Valid(f.data) {
			add(&data, f.key, literal(string(f.data)))
		} else {
			add(&binary, f.key, base64.StdEncoding.EncodeToString(f.data))
		}
		items = append(items, mapping("key", f.key, "path", f.path))
	}
	if size > configMapLimit {
		return nil, fmt.Errorf("the plan and its data files are %d bytes, more than a ConfigMap holds (1 MiB): put them in a volume or in the image", size)
	}
	cm := mapping("apiVersion", "v1", "kind", "ConfigMap", "metadata", meta("-plan"))
	if len(data.Content) > 0 {
		add(&cm, "data", data)
	}
	if len(binary.Content) > 0 {
		add(&cm, "binaryData", binary)
	}

	pvcSpec := mapping("accessModes", []any{"ReadWriteMany"},
		"resources", mapping("requests", mapping("storage", o.storage)))
	if o.storageClass != "" {
		add(&pvcSpec, "storageClassName", o.storageClass)
	}
	pvc := mapping("apiVersion", "v1", "kind", "PersistentVolumeClaim", "metadata", meta("-results"), "spec", pvcSpec)

	n := strconv.Itoa(o.segments)
	sync := "/results/$(RUN_ID)"
	args := []any{"run", "/plan/" + files[0].path,
		"--segment=$(JOB_COMPLETION_INDEX)/" + n,
		"--sync-dir=" + sync,
		"-o", sync + "/segment-$(JOB_COMPLETION_INDEX)"}
	for _, a := range o.runArgs {
		args = append(args, a)
	}
	labels := mapping("app.kubernetes.io/name", "gojm", "gojm.run", dnsLabel(o.runID))
	container := mapping(
		"name", "gojm",
		"image", o.image,
		"args", args,
		"env", []any{mapping("name", "RUN_ID", "value", o.runID)},
		"resources", mapping(
			"requests", mapping("cpu", o.cpu, "memory", o.memory),
			"limits", mapping("memory", o.memory)),
		"volumeMounts", []any{
			mapping("name", "plan", "mountPath", "/plan", "readOnly", true),
			mapping("name", "results", "mountPath", "/results"),
			mapping("name", "tmp", "mountPath", "/tmp")},
		"securityContext", mapping("runAsNonRoot", true, "allowPrivilegeEscalation", false, "readOnlyRootFilesystem", true))
	pod := mapping(
		"restartPolicy", "Never",
		"topologySpreadConstraints", []any{mapping(
			"maxSkew", 1,
			"topologyKey", "kubernetes.io/hostname",
			"whenUnsatisfiable", "ScheduleAnyway",
			"labelSelector", mapping("matchLabels", labels))},
		"containers", []any{container},
		"volumes", []any{
			mapping("name", "plan", "configMap", mapping("name", name+"-plan", "items", items)),
			mapping("name", "results", "persistentVolumeClaim", mapping("claimName", name+"-results")),
			mapping("name", "tmp", "emptyDir", mapping())})
	spec := mapping(
		"completionMode", "Indexed",
		"completions", o.segments,
		"parallelism", o.segments,
		"backoffLimitPerIndex", 0,
		"maxFailedIndexes", 0,
		"podFailurePolicy", mapping("rules", []any{mapping(
			"action", "FailJob",
			"onExitCodes", mapping("containerName", "gojm", "operator", "In", "values", []any{exitThresholds}))}),
		"template", mapping("metadata", mapping("labels", labels), "spec", pod))
	job := mapping("apiVersion", "batch/v1", "kind", "Job", "metadata", meta(""), "spec", spec)

	var b bytes.Buffer
	fmt.Fprintf(&b, "# gojm k8s manifest %s --segments %d: run %s\n", filepath.Base(o.plan), o.segments, o.runID)
	for i, doc := range []yaml.Node{cm, pvc, job} {
		if i > 0 {
			b.WriteString("---\n")
		}
		enc := yaml.NewEncoder(&b)
		enc.SetIndent(2)
		if err := enc.Encode(&doc); err != nil {
			return nil, err
		}
		if err := enc.Close(); err != nil {
			return nil, err
		}
	}
	return b.Bytes(), nil
}

// k8sFiles are the plan, the plans it includes and the data files given,
// each read from below the plan's folder.
func k8sFiles(o k8sOptions) ([]k8sFile, error) {
	dir := filepath.Dir(o.plan)
	src, err := jmx.Load(o.plan)
	if err != nil {
		return nil, err
	}
	paths := []string{filepath.Base(o.plan)}
	seen := map[string]bool{paths[0]: true}
	absDir, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	addPath := func(p string) error {
		abs, err := filepath.Abs(p)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(absDir, abs)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if rel == ".." || strings.HasPrefix(rel, "../") {
			return fmt.Errorf("%s is outside the plan's folder %s: the pods see only the plan's folder", p, dir)
		}
		if !seen[rel] {
			seen[rel] = true
			paths = append(paths, rel)
		}
		return nil
	}
	var walkErr error
	src.Root.Walk(func(x *jmx.Element) bool {
		if x.File != "" && x.File != src.File && walkErr == nil {
			walkErr = addPath(x.File) // an Include Controller's plan
		}
		return true
	})
	if walkErr != nil {
		return nil, walkErr
	}
	for _, f := range o.files {
		if err := addPath(filepath.Join(dir, f)); err != nil {
			return nil, err
		}
	}
	// The data files the plan's fields name as text (CSV Data Sets,
	// __CSVRead, files to upload…) ship with it; a file outside the
	// plan's folder cannot, and the pods run without it, as a plan whose
	// file is not there runs.
	pol := files.New(files.Options{Plan: o.plan, AllowAll: true}) // to find them, not to read them
	warn := o.stderr
	if warn == nil {
		warn = io.Discard
	}
	if _, err := engine.Compile(src, engine.Options{Props: o.props, SkipUnsupported: true, Files: pol}); err == nil {
		for _, in := range pol.Inputs() {
			if st, err := os.Stat(in); err != nil || !st.Mode().IsRegular() {
				continue
			}
			if err := addPath(in); err != nil {
				fmt.Fprintf(warn, "gojm: %v: not shipped (--file ships a file inside it)\n", err)
			}
		}
	}
	sort.Strings(paths[1:])
	keys := map[string]bool{}
	var out []k8sFile
	for _, p := range paths {
		data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(p)))
		if err != nil {
			return nil, err
		}
		key := configKey(p)
		for k := 2; keys[key]; k++ {
			key = configKey(p) + "-" + strconv.Itoa(k)
		}
		keys[key] = true
		out = append(out, k8sFile{key: key, path: p, data: data})
	}
	return out, nil
}

var notKeyChar = regexp.MustCompile(`[^-._a-zA-Z0-9]+`)

// configKey is a ConfigMap key for a path: its characters outside
// [-._a-zA-Z0-9] become "_" (the volume's items put the file back at its
// path).
func configKey(p string) string {
	return notKeyChar.ReplaceAllString(p, "_")
}

// dnsLabel makes s a Kubernetes object name: lower case letters, digits
// and "-", at most 63 characters, starting and ending with a letter or a
// digit.
func dnsLabel(s string) string {
	s = strings.ToLower(s)
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
		case b.Len() > 0 && !strings.HasSuffix(b.String(), "-"):
			b.WriteByte('-')
		}
	}
	out := b.String()
	if len(out) > 63 {
		out = out[:63]
	}
	return strings.Trim(out, "-")
}

// mapping builds a YAML mapping from keys and values, in order.
func mapping(kv ...any) yaml.Node {
	m := yaml.Node{Kind: yaml.MappingNode}
	for i := 0; i+1 < len(kv); i += 2 {
		add(&m, kv[i].(string), kv[i+1])
	}
	return m
}

// add appends key: v to the mapping m.
func add(m *yaml.Node, key string, v any) {
	var n yaml.Node
	switch v := v.(type) {
	case yaml.Node:
		n = v
	case []any:
		n = yaml.Node{Kind: yaml.SequenceNode}
		for _, x := range v {
			var item yaml.Node
			if xn, ok := x.(yaml.Node); ok {
				item = xn
			} else if err := item.Encode(x); err != nil {
				panic(err) // only strings, numbers and booleans come here
			}
			n.Content = append(n.Content, &item)
		}
	default:
		if err := n.Encode(v); err != nil {
			panic(err)
		}
	}
	m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: key}, &n)
}

// literal is a string kept as a block literal (|), as a plan reads best.
func literal(s string) yaml.Node {
	return yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Style: yaml.LiteralStyle, Value: s}
}
