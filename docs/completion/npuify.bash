# bash completion for npuify: commands, then each command's options as its
# --help lists them, then file names.
_npuify() {
    local cur=${COMP_WORDS[COMP_CWORD]}
    if [ "$COMP_CWORD" -eq 1 ]; then
        COMPREPLY=($(compgen -W "$(npuify --help 2>/dev/null |
            sed -n 's/^  \([a-z][a-z]*\)  .*/\1/p')" -- "$cur"))
        return
    fi
    case $cur in
    -*)
        COMPREPLY=($(compgen -W "$(npuify "${COMP_WORDS[1]}" --help 2>/dev/null |
            grep -o -- '--\?[a-zA-Z][-a-zA-Z]*' | sort -u)" -- "$cur"))
        ;;
    *)
        COMPREPLY=($(compgen -f -- "$cur"))
        ;;
    esac
}
complete -o filenames -F _npuify npuify
