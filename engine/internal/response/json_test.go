package response

import "testing"

func TestJavaDecimal(t *testing.T) {
	if got := javaDecimal(1e10); got != "10000000000.0" {
		t.Errorf("javaDecimal = %s", got)
	}
}
