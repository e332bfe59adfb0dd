// The array script, written as POSIX sh so that any node's /bin/sh runs it.
#include "launch/SlurmScript.h"

#include "support/ShellQuote.h"

namespace tessera::launch {

namespace {

// An argument with each kOutputPlaceholder replaced by the shell variable "$part".
std::string shellWordWritingToPart(const std::string& arg) {
  const std::string placeholder = kOutputPlaceholder;
  std::string word;
  size_t begin = 0;
  for (size_t at = arg.find(placeholder); at != std::string::npos; at = arg.find(placeholder, begin)) {
    word += shellQuote(arg.substr(begin, at - begin)) + "\"$part\"";
    begin = at + placeholder.size();
  }
  return word + shellQuote(arg.substr(begin));
}

} // namespace

std::string slurmArrayScript(const std::vector<Shard>& shards) {
  std::string script =
      "#!/bin/sh\n"
      "# Written by tessera's Slurm launcher: array task i runs shard i.\n"
      "case \"$SLURM_ARRAY_TASK_ID\" in\n";
  for (size_t i = 0; i < shards.size(); ++i) {
    const Shard& shard = shards[i];
    script += std::to_string(i) + ")\n  output=" + shellQuote(shard.output) + "\n  run() {";
    if (!shard.env.empty()) script += " env";
    for (const std::string& entry : shard.env) script += " " + shellQuote(entry);
    for (const std::string& arg : shard.argv) script += " " + shellWordWritingToPart(arg);
    script += "; }\n  ;;\n";
  }
  script +=
      "*) echo \"tessera: no shard $SLURM_ARRAY_TASK_ID in this launch\" >&2; exit 2 ;;\n"
      "esac\n"
      "echo \"== tessera shard $SLURM_ARRAY_TASK_ID: job ${SLURM_ARRAY_JOB_ID}_$SLURM_ARRAY_TASK_ID on $SLURMD_NODENAME, "
      "restart ${SLURM_RESTART_COUNT:-0}, CUDA_VISIBLE_DEVICES=${CUDA_VISIBLE_DEVICES:-}\"\n"
      "if [ -e \"$output\" ]; then echo \"tessera: already done: $output\"; exit 0; fi\n"
      "part=\"$output.part-${SLURM_ARRAY_JOB_ID}_$SLURM_ARRAY_TASK_ID-${SLURM_RESTART_COUNT:-0}\"\n"
      "rm -f \"$part\"\n"
      "run\n"
      "status=$?\n"
      "if [ $status -ne 0 ]; then rm -f \"$part\"; echo \"tessera: shard failed with exit status $status\" >&2; exit $status; fi\n"
      "if [ ! -e \"$part\" ]; then echo \"tessera: shard exited 0 without writing its result\" >&2; exit 3; fi\n"
      "mv -f \"$part\" \"$output\"\n";
  return script;
}

} // namespace tessera::launch
