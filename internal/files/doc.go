// Package files decides which files a plan may read and write, and finds
// and opens the ones it reads. A plan is untrusted input: by default it
// reads only under its own folder and the working folder, and writes only
// there and into the output folder; folders the command line allows
// (--allow-read, --allow-write) are added, and --allow-all-files gives
// JMeter's behaviour. Scripts write and delete under narrower rules
// (CheckScriptWrite): not in the working folder outside the plan's, output
// and --allow-write folders, and never a dot-file or into a dot-folder. Whatever is allowed, /proc, /sys and device files are
// never read as data, and no plan writes over itself or a part of it (an
// included plan, a script file: FindCode), under any name that is the same
// file, nor a listener over a data file the plan reads (a script may, as
// JMeter's do).
//
// Every element that opens a file the plan names goes through one Policy:
// Find where the plan's name points (a file of the same base name beside
// the plan or in the working folder stands in for one that is absent, as
// plans made on another machine need), CheckRead or Open before reading,
// CheckWrite before writing. A file outside the allowed folders is refused
// (ErrDenied); a file that is simply absent is an error wrapping
// fs.ErrNotExist, which callers turn into JMeter's leniency (a warning).
//
// It imports only the standard library.
package files
