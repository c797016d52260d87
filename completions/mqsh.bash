# bash completion for mqsh
#
#   mqsh [options] [QMGR]
#   mqsh [--data-dir DIR] crtmqm|strmqm|endmqm|dltmqm|dspmq|rcdmqimg|rcrmqobj|rcdmqmimg|csq5pqsg|dmpmqcfg|audit ...
#
# Install: source this file from ~/.bashrc, or copy it to
# ~/.local/share/bash-completion/completions/mqsh
#
# Queue manager names come from `mqsh [--data-dir DIR] dspmq` (with the
# --data-dir typed on the line, if any), whose lines read
# "QMNAME(QM1)   STATUS(Running)".

_mqsh_controls="crtmqm strmqm endmqm dltmqm dspmq rcdmqimg rcrmqobj rcdmqmimg csq5pqsg dmpmqcfg audit lab"
_mqsh_dump_types="all qmgr queue q namelist nl process prcs channel authinfo listener lstr service srvc comminfo topic sub chlauth authrec"
_mqsh_object_types="all authinfo catalog ctlg channel chl clntconn clcn comminfo listener lstr namelist nl process prcs qmgr queue q qalias qa qlocal ql qmodel qm qremote qr service srvc topic"

_mqsh_qmgrs() {
    local i data_dir=()
    for ((i = 1; i < COMP_CWORD; i++)); do
        if [[ ${COMP_WORDS[i]} == --data-dir ]]; then
            [[ ${COMP_WORDS[i + 1]} == = ]] && ((i++))  # "=" is a word of its own in COMP_WORDS
            data_dir=(--data-dir "${COMP_WORDS[i + 1]}")
            break
        fi
    done
    mqsh "${data_dir[@]}" dspmq 2>/dev/null | sed -n 's/^QMNAME(\([^)]*\)).*/\1/p'
}

# Where a control command's name may stand: first, or after a leading --data-dir DIR.
_mqsh_command_index() {
    local i=1
    if [[ ${COMP_WORDS[1]} == --data-dir ]]; then
        i=3
        [[ ${COMP_WORDS[2]} == = ]] && i=4
    fi
    echo $i
}

_mqsh_control() {
    local command=$1 cur=$2 prev=$3 options
    if [[ $command == dmpmqcfg ]]; then
        case $prev in
            -m) COMPREPLY=($(compgen -W "$(_mqsh_qmgrs)" -- "$cur")); return ;;
            -t) COMPREPLY=($(compgen -W "$_mqsh_dump_types" -- "$cur")); return ;;
            -o) COMPREPLY=($(compgen -W "mqsc 1line" -- "$cur")); return ;;
            -x) COMPREPLY=($(compgen -W "all object sub chlauth authrec policy" -- "$cur")); return ;;
            -n) return ;;  # a name or generic name
        esac
    fi
    if [[ $command == audit ]]; then
        case $prev in
            --from | --collect) COMPREPLY=($(compgen -d -- "$cur")); return ;;  # a folder of cluster cache dumps
            -c) return ;;  # a cluster name or generic name
        esac
    fi
    case $prev in
        -lf | -lp | -ls | --host) return ;;  # a number, a host name
        -m) COMPREPLY=($(compgen -W "$(_mqsh_qmgrs)" -- "$cur")); return ;;
        -t) COMPREPLY=($(compgen -W "$_mqsh_object_types" -- "$cur")); return ;;
        -o) COMPREPLY=($(compgen -W "status default standby installation nativeha all" -- "$cur")); return ;;
    esac
    case $command in
        crtmqm) options="-lc -ll -lr -lf -lp -ls -q --log-management --log-fs-size --checkpoint-records --host" ;;
        strmqm) options="-c -r -a -x -e -f -si -ss -d -z -ns --verify-log --ignore-missing-log" ;;
        endmqm) options="-c -w -i -p -r" ;;
        dltmqm) options="" ;;
        dspmq) options="-m -s -o -x -a -n" ;;
        rcdmqimg) options="-m -z -l -t" ;;
        rcrmqobj) options="-m -z -t" ;;
        rcdmqmimg) options="OBJ( OBJTYPE( MQMNAME( DSPJRNDTA(" ;;
        csq5pqsg) options="ADD REMOVE VERIFY QSG, QMGR," ;;
        dmpmqcfg) options="-m -a -o -x -t -n" ;;
        audit) options="-c --from --collect" ;;
    esac
    if [[ $cur == -* || $command == crtmqm || $command == dspmq || $command == rc* || $command == csq5pqsg || $command == dmpmqcfg || $command == audit ]]; then
        # crtmqm names a new queue manager; the others take names only after -m (csq5pqsg: in its PARM).
        COMPREPLY=($(compgen -W "$options" -- "$cur"))
    else
        COMPREPLY=($(compgen -W "$(_mqsh_qmgrs) $options" -- "$cur"))
    fi
}

_mqsh() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
    local first
    first=$(_mqsh_command_index)
    COMPREPLY=()
    if ((COMP_CWORD > first)) && [[ " $_mqsh_controls " == *" ${COMP_WORDS[first]} "* ]]; then
        _mqsh_control "${COMP_WORDS[first]}" "$cur" "$prev"
        return
    fi
    [[ $prev == = ]] && prev=${COMP_WORDS[COMP_CWORD - 2]}
    case $prev in
        -f) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --data-dir) COMPREPLY=($(compgen -d -- "$cur")); return ;;
        --format) COMPREPLY=($(compgen -W "mqsc table json csv" -- "$cur")); return ;;
        --engine) COMPREPLY=($(compgen -W "auto spark local" -- "$cur")); return ;;
        --spark-master) return ;;
    esac
    local options="-f -e --echo -v --format --data-dir --engine --spark-master -h --help --version"
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$options" -- "$cur"))
    elif ((COMP_CWORD == first)); then
        COMPREPLY=($(compgen -W "$_mqsh_controls $(_mqsh_qmgrs)" -- "$cur"))
    else
        COMPREPLY=($(compgen -W "$(_mqsh_qmgrs)" -- "$cur"))
    fi
}

complete -F _mqsh mqsh
