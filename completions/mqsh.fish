# fish completion for mqsh
#
#   mqsh [options] [QMGR]
#   mqsh [--data-dir DIR] crtmqm|strmqm|endmqm|dltmqm|dspmq|rcdmqimg|rcrmqobj|rcdmqmimg|csq5pqsg|dmpmqcfg|audit ...
#
# Install: copy to ~/.config/fish/completions/mqsh.fish
#
# Queue manager names come from `mqsh [--data-dir DIR] dspmq` (with the
# --data-dir typed on the line, if any), whose lines read
# "QMNAME(QM1)   STATUS(Running)".

function __mqsh_qmgrs
    set -l tokens (commandline -opc)
    set -l data_dir
    set -l index (contains -i -- --data-dir $tokens)
    and set data_dir --data-dir $tokens[(math $index + 1)]
    mqsh $data_dir dspmq 2>/dev/null | string replace -rf '^QMNAME\(([^)]*)\).*' '$1'
end

# Where a control command's name may stand: first, or after a leading --data-dir DIR.
function __mqsh_command_position
    set -l tokens (commandline -opc)
    if test "$tokens[2]" = --data-dir
        echo 4
    else
        echo 2
    end
end

# The control command on the line (mqsh crtmqm ...), if any.
function __mqsh_control
    set -l tokens (commandline -opc)
    set -l position (__mqsh_command_position)
    set -q tokens[$position]; and contains -- $tokens[$position] crtmqm strmqm endmqm dltmqm dspmq rcdmqimg rcrmqobj rcdmqmimg csq5pqsg dmpmqcfg audit
    and echo $tokens[$position]
end

function __mqsh_using
    set -l control (__mqsh_control)
    test "$control" = "$argv[1]"
end

function __mqsh_plain
    set -l control (__mqsh_control)
    test -z "$control"
end

function __mqsh_first_word
    test (count (commandline -opc)) -eq (math (__mqsh_command_position) - 1)
end

complete -c mqsh -f

# mqsh [options] [QMGR]
complete -c mqsh -n __mqsh_first_word -a crtmqm -d 'Create a queue manager'
complete -c mqsh -n __mqsh_first_word -a strmqm -d 'Start a queue manager'
complete -c mqsh -n __mqsh_first_word -a endmqm -d 'End a queue manager'
complete -c mqsh -n __mqsh_first_word -a dltmqm -d 'Delete a queue manager'
complete -c mqsh -n __mqsh_first_word -a dspmq -d 'Display queue managers'
complete -c mqsh -n __mqsh_first_word -a rcdmqimg -d 'Record media images of objects'
complete -c mqsh -n __mqsh_first_word -a rcrmqobj -d 'Re-create damaged objects from their media images'
complete -c mqsh -n __mqsh_first_word -a rcdmqmimg -d 'Record media images (IBM i form)'
complete -c mqsh -n __mqsh_first_word -a csq5pqsg -d 'Add, remove and verify queue sharing groups (z/OS CSQ5PQSG)'
complete -c mqsh -n __mqsh_first_word -a dmpmqcfg -d "Dump a queue manager's configuration as MQSC"
complete -c mqsh -n __mqsh_first_word -a audit -d "Audit the cluster caches for what goes wrong after DR tests"
complete -c mqsh -n __mqsh_first_word -a lab -d "List the teaching labs, or run them against their expected reports"
complete -c mqsh -n __mqsh_plain -a '(__mqsh_qmgrs)' -d 'Queue manager'
complete -c mqsh -n __mqsh_plain -s f -r -F -d 'Read MQSC commands from a file'
complete -c mqsh -n __mqsh_plain -s e -d 'Do not echo commands into the report'
complete -c mqsh -n __mqsh_plain -l echo -d 'At the prompt, echo each command numbered, as runmqsc does'
complete -c mqsh -n __mqsh_plain -s v -d 'Verify syntax only; run nothing'
complete -c mqsh -n __mqsh_plain -l format -x -a 'mqsc table json csv' -d 'How responses are shown'
complete -c mqsh -n __mqsh_plain -l engine -x -a 'auto spark local' -d 'Where heavy replay runs'
complete -c mqsh -n __mqsh_plain -l spark-master -x -d 'Spark master URL or sc:// endpoint'
complete -c mqsh -n __mqsh_plain -s h -l help -d 'Show help'
complete -c mqsh -n __mqsh_plain -l version -d 'Show the version'
complete -c mqsh -n __mqsh_plain -l data-dir -x -a '(__fish_complete_directories)' -d 'Data directory'

# mqsh crtmqm [-lc|-ll|-lr] [-lf pages] [-lp n] [-ls n] [-q] [--log-management M] [--log-fs-size MB] [--checkpoint-records N] QM
complete -c mqsh -n '__mqsh_using crtmqm' -o lc -d 'Circular logging (default)'
complete -c mqsh -n '__mqsh_using crtmqm' -o ll -d 'Linear logging'
complete -c mqsh -n '__mqsh_using crtmqm' -o lr -d 'Replicated logging (Native HA)'
complete -c mqsh -n '__mqsh_using crtmqm' -o lf -x -d 'Log file pages (4 KB each)'
complete -c mqsh -n '__mqsh_using crtmqm' -o lp -x -d 'Primary log files'
complete -c mqsh -n '__mqsh_using crtmqm' -o ls -x -d 'Secondary log files'
complete -c mqsh -n '__mqsh_using crtmqm' -s q -d 'Make it the default queue manager'
complete -c mqsh -n '__mqsh_using crtmqm' -l log-management -x -a 'manual archive automatic' -d 'LogManagement of a linear log'
complete -c mqsh -n '__mqsh_using crtmqm' -l log-fs-size -x -d 'Log file system size in MB'
complete -c mqsh -n '__mqsh_using crtmqm' -l checkpoint-records -x -d 'Log records between checkpoints'
complete -c mqsh -n '__mqsh_using crtmqm' -l host -x -d "Host it runs on in the lab's network"

# mqsh strmqm [-c|-r|-a|-x|-e CMDLEVEL=n] [-f] [-si|-ss] [-d information|none] [-z] [-ns] [QM] / endmqm [-c|-w|-i|-p] [-r] [QM] / dltmqm QM / dspmq [-m QM] [-s] [-o ..] [-x] [-a]
complete -c mqsh -n '__mqsh_using strmqm' -s c -d 'Start, redefine the default and system objects, then stop'
complete -c mqsh -n '__mqsh_using strmqm' -s r -d 'Update a backup queue manager'
complete -c mqsh -n '__mqsh_using strmqm' -s a -d 'Activate a backup queue manager'
complete -c mqsh -n '__mqsh_using strmqm' -s x -d 'Start an instance, standby permitted'
complete -c mqsh -n '__mqsh_using strmqm' -s e -x -a 'CMDLEVEL=942' -d 'Enable a command level'
complete -c mqsh -n '__mqsh_using strmqm' -s f -d 'Make missing directories again'
complete -c mqsh -n '__mqsh_using strmqm' -o si -d 'Interactive service mode (refused)'
complete -c mqsh -n '__mqsh_using strmqm' -o ss -d 'Service mode (refused)'
complete -c mqsh -n '__mqsh_using strmqm' -s d -x -a 'information none' -d 'Which messages are shown'
complete -c mqsh -n '__mqsh_using strmqm' -s z -d 'Errors only'
complete -c mqsh -n '__mqsh_using strmqm' -o ns -d 'Start no channel initiator, command server, listeners or services'
complete -c mqsh -n '__mqsh_using strmqm' -l verify-log -d 'Check every log record first'
complete -c mqsh -n '__mqsh_using strmqm' -l ignore-missing-log -d 'Pass over missing log extents'
complete -c mqsh -n '__mqsh_using endmqm' -s c -d 'Controlled (default)'
complete -c mqsh -n '__mqsh_using endmqm' -s w -d 'Controlled, waiting for the end'
complete -c mqsh -n '__mqsh_using endmqm' -s i -d 'Immediate'
complete -c mqsh -n '__mqsh_using endmqm' -s p -d 'Preemptive'
complete -c mqsh -n '__mqsh_using endmqm' -s r -d 'Clients reconnect elsewhere'
complete -c mqsh -n '__mqsh_using dspmq' -s m -x -a '(__mqsh_qmgrs)' -d 'This queue manager only'
complete -c mqsh -n '__mqsh_using dspmq' -s s -d 'Status (the default)'
complete -c mqsh -n '__mqsh_using dspmq' -s o -x -a 'status default standby installation nativeha all' -d 'What to show'
complete -c mqsh -n '__mqsh_using dspmq' -s x -d 'The instance running each one'
complete -c mqsh -n '__mqsh_using dspmq' -s a -d 'Running queue managers only'
complete -c mqsh -n '__mqsh_using dspmq' -s n -d 'Strings untranslated'
for command in strmqm endmqm dltmqm
    complete -c mqsh -n "__mqsh_using $command" -a '(__mqsh_qmgrs)' -d 'Queue manager'
end

# mqsh rcdmqimg [-m QM] [-z] [-l] -t type [name] / rcrmqobj [-m QM] [-z] -t type name
for command in rcdmqimg rcrmqobj
    complete -c mqsh -n "__mqsh_using $command" -s m -x -a '(__mqsh_qmgrs)' -d 'Queue manager'
    complete -c mqsh -n "__mqsh_using $command" -s z -d 'Suppress error messages'
    complete -c mqsh -n "__mqsh_using $command" -s t -x -a 'all authinfo catalog ctlg channel chl clntconn clcn comminfo listener lstr namelist nl process prcs qmgr queue q qalias qa qlocal ql qmodel qm qremote qr service srvc topic' -d 'Object type'
end
complete -c mqsh -n '__mqsh_using rcdmqimg' -o l -d 'Show the oldest log files needed'
complete -c mqsh -n '__mqsh_using rcdmqmimg' -a 'OBJ( OBJTYPE( MQMNAME( DSPJRNDTA(' -d 'Parameter'
complete -c mqsh -n '__mqsh_using csq5pqsg' -a 'ADD REMOVE VERIFY QSG, QMGR,' -d 'Function'

# mqsh dmpmqcfg [-m QM] [-a] [-o mqsc|1line] [-x export] [-t type] [-n name]
complete -c mqsh -n '__mqsh_using dmpmqcfg' -s m -x -a '(__mqsh_qmgrs)' -d 'Queue manager'
complete -c mqsh -n '__mqsh_using dmpmqcfg' -s a -d 'Every attribute, defaults too'
complete -c mqsh -n '__mqsh_using dmpmqcfg' -s o -x -a 'mqsc 1line' -d 'Format'
complete -c mqsh -n '__mqsh_using dmpmqcfg' -s x -x -a 'all object sub chlauth authrec policy' -d 'What to dump'
complete -c mqsh -n '__mqsh_using dmpmqcfg' -s t -x -a 'all qmgr queue q namelist nl process prcs channel authinfo listener lstr service srvc comminfo topic sub chlauth authrec' -d 'Object type'
complete -c mqsh -n '__mqsh_using dmpmqcfg' -s n -x -d 'Object name or generic name'

# mqsh audit [-c CLUSTER] [--from FOLDER | --collect FOLDER]
complete -c mqsh -n '__mqsh_using audit' -s c -x -d 'Cluster or generic name'
complete -c mqsh -n '__mqsh_using audit' -l from -x -a '(__fish_complete_directories)' -d 'Audit the cluster cache dumps in this folder'
complete -c mqsh -n '__mqsh_using audit' -l collect -x -a '(__fish_complete_directories)' -d 'Write the cluster cache dumps to this folder'
