// Package k8s checks gojm's Kubernetes manifest against Kubernetes' own
// API types. It is a module of its own so that the main module does not
// depend on them: its test decodes the golden manifest of
// cmd/gojm (gojm k8s manifest) strictly, refusing any field the API does
// not know.
package k8s
