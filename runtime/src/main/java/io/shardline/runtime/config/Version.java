package io.shardline.runtime.config;

import picocli.CommandLine.IVersionProvider;

/** The version printed by {@code --version} of every command, from the runtime jar's manifest. */
public final class Version implements IVersionProvider {

    /** The Shardline version, or {@code "dev"} when running from classes outside a jar. */
    public static String current() {
        String v = Version.class.getPackage().getImplementationVersion();
        return v != null ? v : "dev";
    }

    @Override
    public String[] getVersion() {
        return new String[] {"Shardline " + current()};
    }
}
