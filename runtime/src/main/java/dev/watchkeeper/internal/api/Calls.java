package dev.watchkeeper.internal.api;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import okhttp3.Call;
import okhttp3.Response;
import okhttp3.ResponseBody;

/**
 * Sends a built call and reads its answer's bytes, leaving the decoding to the caller: the client's own decoding
 * rejects any field its model does not know, so an answer from an API server newer than the client would fail a
 * call the server has carried out.
 */
public final class Calls {

    private Calls() {
    }

    /**
     * The body of {@code call}'s answer.
     *
     * @throws ApiException what {@link ApiClient#execute} throws for the same failure: a non-2xx answer with its
     *                      code, headers and body, or the I/O failure as its cause
     */
    public static byte[] body(Call call) throws ApiException {
        try (Response response = call.execute()) {
            ResponseBody body = response.body();
            byte[] bytes = body == null ? new byte[0] : body.bytes();
            if (!response.isSuccessful()) {
                throw new ApiException(response.message(), response.code(), response.headers().toMultimap(),
                        new String(bytes, StandardCharsets.UTF_8));
            }
            return bytes;
        } catch (IOException e) {
            throw new ApiException(e);
        }
    }
}
