package mcphost

// growStack grows the calling goroutine's stack, in one step, to what a tools/call needs.
//
// The SDK runs every request on a goroutine of its own, which starts with a small stack. A call's
// pipeline (the SDK's dispatch, the tools runtime, the kernel's waterfall, the tool, the result's
// encoding) then outgrew it several times, and each growth copies the stack and adjusts every
// frame on it: 5 to 10 % of `serve`'s CPU for a 2,000-line read in profiles of the real process.
// Growing the stack while it is still shallow costs one small copy. The in-process benchmark does
// not separate the two; `e2e/abread.mjs` does (docs/testing.md "Measuring").
//
// The frame is what grows the stack: the function's prologue asks for callStack bytes. The array
// is only written in a branch never taken, so it is never zeroed.
//
//go:noinline
func growStack() {
	if neverTrue {
		var buf [callStack]byte
		touch(buf[:]) // keeps the frame: the compiler cannot see that touch does nothing
	}
}

//go:noinline
func touch([]byte) {}

// neverTrue is false; the compiler cannot know it.
var neverTrue = false

// callStack is the stack room a tools/call is given up front.
const callStack = 16 << 10
