package io.shardline.api.config;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Renders a {@link ConfigDef} as Markdown: one table per group (groups in definition order; keys
 * by importance, required first, then name), then the pass-through prefixes. The output is
 * deterministic so that a committed copy can be checked for staleness.
 *
 * <p>Stateless and thread-safe.
 */
public final class ConfigDocs {

    private ConfigDocs() {
    }

    /**
     * The reference tables.
     *
     * @param def the definition
     * @param headingLevel Markdown heading level of the group headings (1-6)
     */
    public static String markdown(ConfigDef def, int headingLevel) {
        if (headingLevel < 1 || headingLevel > 6) {
            throw new IllegalArgumentException("headingLevel must be 1..6: " + headingLevel);
        }
        String hashes = "#".repeat(headingLevel);
        Map<String, List<ConfigKey>> groups = new LinkedHashMap<>();
        for (ConfigKey key : def.keys()) {
            groups.computeIfAbsent(key.group(), g -> new ArrayList<>()).add(key);
        }
        StringBuilder md = new StringBuilder();
        for (Map.Entry<String, List<ConfigKey>> group : groups.entrySet()) {
            if (!group.getKey().isEmpty()) {
                md.append(hashes).append(' ').append(group.getKey()).append("\n\n");
            }
            md.append("| Key | Type | Default | Valid values | Importance | Description |\n");
            md.append("| --- | --- | --- | --- | --- | --- |\n");
            List<ConfigKey> sorted = new ArrayList<>(group.getValue());
            sorted.sort(Comparator.comparing(ConfigKey::importance)
                    .thenComparing(k -> !k.required())
                    .thenComparing(ConfigKey::name));
            for (ConfigKey key : sorted) {
                md.append("| `").append(key.name()).append("` | ")
                        .append(key.type().displayName()).append(" | ")
                        .append(defaultCell(key)).append(" | ")
                        .append(cell(key.validator().describe())).append(" | ")
                        .append(key.importance().name().toLowerCase(java.util.Locale.ROOT)).append(" | ")
                        .append(cell(key.doc())).append(" |\n");
            }
            md.append('\n');
        }
        if (!def.prefixes().isEmpty()) {
            md.append(hashes).append(" Prefixes\n\n| Prefix | Description |\n| --- | --- |\n");
            for (ConfigDef.Prefix prefix : def.prefixes()) {
                md.append("| `").append(prefix.prefix()).append("*` | ").append(cell(prefix.doc())).append(" |\n");
            }
            md.append('\n');
        }
        if (!def.rules().isEmpty()) {
            md.append(hashes).append(" Rules\n\n");
            for (ConfigDef.Rule rule : def.rules()) {
                md.append("- `").append(rule.key()).append("`: ").append(cell(rule.reason())).append('\n');
            }
            md.append('\n');
        }
        return md.toString();
    }

    private static String defaultCell(ConfigKey key) {
        if (key.required()) {
            return "*required*";
        }
        String text = key.defaultText();
        return text.isEmpty() ? "" : "`" + cell(text) + "`";
    }

    private static String cell(String text) {
        return text.replace("|", "\\|").replace("<", "&lt;").replace(">", "&gt;").replace("\n", " ");
    }
}
