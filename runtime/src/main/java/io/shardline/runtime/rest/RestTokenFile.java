package io.shardline.runtime.rest;

import io.shardline.api.config.Password;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.EnumSet;
import java.util.Set;

/**
 * The REST token of a worker that has none configured (as Jupyter's): generated on the first start (32
 * random bytes, URL-safe Base64), written to a file only the worker's user may read or write (mode 0600,
 * created under that mode, never widened), reused on later starts. The file holds the token on one line:
 * {@code curl -H "Authorization: Bearer $(cat logs/<worker.id>.token)" ...}. A file that others may read
 * is refused rather than trusted. Stateless.
 */
public final class RestTokenFile {

    private static final Set<PosixFilePermission> OWNER_ONLY = EnumSet.of(PosixFilePermission.OWNER_READ,
            PosixFilePermission.OWNER_WRITE);
    private static final SecureRandom RANDOM = new SecureRandom();

    private RestTokenFile() {
    }

    /**
     * The token in {@code file}, created with a new random token first if the file does not exist.
     *
     * @throws IllegalStateException naming the file and what to do when it cannot be read or written, or
     *     when users other than its owner may read it
     */
    public static Password loadOrCreate(Path file) {
        if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
            create(file);
        }
        return read(file);
    }

    /** A new random token (256 bits). */
    public static String newToken() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    private static void create(Path file) {
        Path dir = file.toAbsolutePath().getParent();
        try {
            Files.createDirectories(dir);
            boolean posix = Files.getFileStore(dir).supportsFileAttributeView("posix");
            FileAttribute<?>[] attrs = posix ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(OWNER_ONLY)}
                    : new FileAttribute<?>[0];
            // Written in full under a temporary name, then linked into place: a concurrent reader never sees a
            // partial file, and of two workers sharing the file the second one keeps the first one's token.
            Path tmp = Files.createTempFile(dir, ".rest-token-", ".tmp", attrs);
            try {
                Files.writeString(tmp, newToken() + "\n", StandardCharsets.UTF_8);
                try {
                    Files.createLink(file, tmp);
                } catch (FileAlreadyExistsException raced) {
                    // another process created it meanwhile: use its token
                } catch (UnsupportedOperationException noLinks) {
                    Files.move(tmp, file);
                }
            } finally {
                Files.deleteIfExists(tmp);
            }
        } catch (FileAlreadyExistsException raced) {
            // created by another process meanwhile
        } catch (IOException e) {
            throw new IllegalStateException("cannot write the REST token file " + file + " (" + e.getMessage()
                    + "): make its directory writable, set rest.auth.token.file, or set rest.auth.token", e);
        }
    }

    private static Password read(Path file) {
        try {
            if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
                throw new IllegalStateException("REST token file " + file + " is not a regular file: remove it (a "
                        + "new token is generated) or set rest.auth.token.file");
            }
            if (Files.getFileStore(file).supportsFileAttributeView("posix")) {
                Set<PosixFilePermission> mode = Files.getPosixFilePermissions(file, LinkOption.NOFOLLOW_LINKS);
                if (!OWNER_ONLY.containsAll(mode)) {
                    throw new IllegalStateException("REST token file " + file + " may be read by other users (mode "
                            + PosixFilePermissions.toString(mode) + "): chmod 600 " + file
                            + ", or delete it to have a new token generated");
                }
            }
            String token = Files.readString(file, StandardCharsets.UTF_8).trim();
            if (token.isEmpty()) {
                throw new IllegalStateException("REST token file " + file + " is empty: delete it to have a new "
                        + "token generated");
            }
            return new Password(token);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the REST token file " + file + " (" + e.getMessage() + ")", e);
        }
    }
}
