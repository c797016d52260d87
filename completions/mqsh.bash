# bash completion for mqsh
#
#   mqsh [options] [QMGR]
#   mqsh crtmqm|strmqm|endmqm|dltmqm|dspmq ...
#
# Install: source this file from ~/.bashrc, or copy it to
# ~/.local/share/bash-completion/completions/mqsh
#
# Queue manager names come from `mqsh dspmq` (with the --data-dir typed on the
# line, if any), whose lines read "QMNAME(QM1)   STATUS(Running)".

_mqsh_qmgrs() {
    local i data_dir=()
    for ((i = 1; i < COMP_CWORD; i++)); do
        if [[ ${COMP_WORDS[i]} == --data-dir ]]; then
            data_dir=(--data-dir "${COMP_WORDS[i + 1]}")
        fi
    done
    mqsh dspmq "${data_dir[@]}" 2>/dev/null | sed -n 's/^QMNAME(\([^)]*\)).*/\1/p'
}

_mqsh_control() {
    local command=$1 cur=$2 prev=$3 options
    case $prev in
        --data-dir) COMPREPLY=($(compgen -d -- "$cur")); return ;;
        -lf | -lp | -ls) return ;;  # a number
        -m) COMPREPLY=($(compgen -W "$(_mqsh_qmgrs)" -- "$cur")); return ;;
    esac
    case $command in
        crtmqm) options="-lc -ll -lr -lf -lp -ls -q --data-dir" ;;
        strmqm) options="-ns --data-dir" ;;
        endmqm) options="-c -i -p --data-dir" ;;
        dltmqm) options="--data-dir" ;;
        dspmq) options="-m --data-dir" ;;
    esac
    if [[ $cur == -* || $command == crtmqm || $command == dspmq ]]; then
        # crtmqm names a new queue manager; dspmq takes names only after -m.
        COMPREPLY=($(compgen -W "$options" -- "$cur"))
    else
        COMPREPLY=($(compgen -W "$(_mqsh_qmgrs) $options" -- "$cur"))
    fi
}

_mqsh() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
    local controls="crtmqm strmqm endmqm dltmqm dspmq"
    COMPREPLY=()
    if ((COMP_CWORD > 1)) && [[ " $controls " == *" ${COMP_WORDS[1]} "* ]]; then
        _mqsh_control "${COMP_WORDS[1]}" "$cur" "$prev"
        return
    fi
    case $prev in
        -f) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --data-dir) COMPREPLY=($(compgen -d -- "$cur")); return ;;
        --format) COMPREPLY=($(compgen -W "mqsc table json" -- "$cur")); return ;;
        --engine) COMPREPLY=($(compgen -W "auto spark local" -- "$cur")); return ;;
        --spark-master) return ;;
    esac
    local options="-f -e -v --format --data-dir --engine --spark-master -h --help --version"
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$options" -- "$cur"))
    elif ((COMP_CWORD == 1)); then
        COMPREPLY=($(compgen -W "$controls $(_mqsh_qmgrs)" -- "$cur"))
    else
        COMPREPLY=($(compgen -W "$(_mqsh_qmgrs)" -- "$cur"))
    fi
}

complete -F _mqsh mqsh
