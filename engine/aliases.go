package engine

import "github.com/gojm/gojm/engine/internal/element"

// The seam's names as the engine's files use them until each element
// family moves to a package of its own.
type (
	VU                 = element.VU
	Vars               = element.Vars
	Props              = element.Props
	Symbols            = element.Symbols
	Template           = element.Template
	Part               = element.Part
	PartKind           = element.PartKind
	Function           = element.Function
	FuncFunc           = element.FuncFunc
	Result             = element.Result
	Next               = element.Next
	Sampler            = element.Sampler
	SamplerFunc        = element.SamplerFunc
	Timer              = element.Timer
	PreProcessor       = element.PreProcessor
	PostProcessor      = element.PostProcessor
	Assertion          = element.Assertion
	SampleListener     = element.SampleListener
	IterationListener  = element.IterationListener
	Local[T any]       = element.Local[T]
	Shared[T any]      = element.Shared[T]
	GroupShared[T any] = element.GroupShared[T]
	Key[T any]         = element.Key[T]
)

const (
	LitPart      = element.LitPart
	VarPart      = element.VarPart
	FnPart       = element.FnPart
	NamedVarPart = element.NamedVarPart

	Continue          = element.Continue
	NextThreadLoop    = element.NextThreadLoop
	NextIterationLoop = element.NextIterationLoop
	BreakLoop         = element.BreakLoop
	StopThread        = element.StopThread
	StopTest          = element.StopTest
	StopTestNow       = element.StopTestNow
)
