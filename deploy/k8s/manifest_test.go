package k8s

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/yaml"
	sigsyaml "sigs.k8s.io/yaml"
)

// TestManifestDecodesStrictly reads every document of the golden manifest
// into the Kubernetes type its kind names, with unknown fields refused,
// and checks what a split run depends on.
func TestManifestDecodesStrictly(t *testing.T) {
	text, err := os.ReadFile(filepath.Join("..", "..", "cmd", "gojm", "testdata", "k8s", "manifest.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	r := yaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(text)))
	kinds := map[string]bool{}
	for {
		doc, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		var head struct{ Kind string }
		if err := sigsyaml.Unmarshal(doc, &head); err != nil {
			t.Fatal(err)
		}
		kinds[head.Kind] = true
		switch head.Kind {
		case "ConfigMap":
			var cm corev1.ConfigMap
			strict(t, doc, &cm)
			if cm.Data["quickstart.jmx"] == "" || len(cm.BinaryData["data_key.bin"]) != 3 {
				t.Errorf("the ConfigMap lacks the plan or the binary file: %v %v", cm.Data, cm.BinaryData)
			}
		case "PersistentVolumeClaim":
			var pvc corev1.PersistentVolumeClaim
			strict(t, doc, &pvc)
			if len(pvc.Spec.AccessModes) != 1 || pvc.Spec.AccessModes[0] != corev1.ReadWriteMany {
				t.Errorf("the results volume is %v, want ReadWriteMany", pvc.Spec.AccessModes)
			}
		case "Job":
			var job batchv1.Job
			strict(t, doc, &job)
			s := job.Spec
			if s.CompletionMode == nil || *s.CompletionMode != batchv1.IndexedCompletion ||
				*s.Completions != 4 || *s.Parallelism != 4 || *s.BackoffLimitPerIndex != 0 || *s.MaxFailedIndexes != 0 {
				t.Errorf("the Job is not 4 indexed pods that fail alone: %+v", s)
			}
			if s.Template.Spec.RestartPolicy != corev1.RestartPolicyNever {
				t.Errorf("restartPolicy %q", s.Template.Spec.RestartPolicy)
			}
			c := s.Template.Spec.Containers[0]
			if _, ok := c.Resources.Limits[corev1.ResourceCPU]; ok {
				t.Error("the pods have a CPU limit: a throttled load generator measures itself")
			}
			rules := s.PodFailurePolicy.Rules
			if len(rules) != 1 || rules[0].Action != batchv1.PodFailurePolicyActionFailJob || rules[0].OnExitCodes.Values[0] != 99 {
				t.Errorf("the pod failure policy does not fail the Job on exit 99: %+v", rules)
			}
		default:
			t.Errorf("unexpected kind %q", head.Kind)
		}
	}
	for _, k := range []string{"ConfigMap", "PersistentVolumeClaim", "Job"} {
		if !kinds[k] {
			t.Errorf("no %s in the manifest", k)
		}
	}
}

func strict(t *testing.T, doc []byte, into any) {
	t.Helper()
	if err := sigsyaml.UnmarshalStrict(doc, into); err != nil {
		t.Fatalf("%T: %v", into, err)
	}
}
