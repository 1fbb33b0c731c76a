package fs

import "github.com/cordon-dev/cordon/kernel"

// Service is the fs service key ("fs"). A second live provider fails;
// disposing the providing plugin withdraws it.
var Service = kernel.NewService[FileSystem]("fs")

// WriteIntentEvent ("fs/write-intent") is a single-slot waterfall deciding the
// *WriteIntent of the next WriteText of IntentArgs.Target. The first decider
// in composition order owns the decision and never calls next; with no
// listener the caller's inner default runs (tool-fs: nil, an unconditional
// write).
var WriteIntentEvent = kernel.NewWaterfall[IntentArgs, *WriteIntent]("fs/write-intent", kernel.SingleSlot())

// EditIntentEvent ("fs/edit-intent") is a single-slot waterfall deciding the
// *EditGuard of the next EditText. Same shape as WriteIntentEvent; the decider
// may fail instead (FS_NOT_OBSERVED, FS_NOT_FOUND), and the error reaches the
// caller.
var EditIntentEvent = kernel.NewWaterfall[IntentArgs, *EditGuard]("fs/edit-intent", kernel.SingleSlot())

// ObservedEvent ("fs/observed") is a synchronous emit: every listener runs
// and their errors are joined and returned to the emitter. Listeners are
// side-effect-only recorders. With no listener nothing is recorded.
var ObservedEvent = kernel.NewEvent[ObservedArgs]("fs/observed")
